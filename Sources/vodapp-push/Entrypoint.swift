import CommandSupport

@main
enum Entrypoint {
    static func main() async {
        await CommandLineTool.main(PushCommand.self)
    }
}
