import VODAppTransfer

@main
enum Entrypoint {
    static func main() async {
        // The budget runs from process start, and libcurl's global set-up must precede threads.
        _ = ProcessClock.launch
        Curl.initialize()
        await VODAppCommand.main()
    }
}
