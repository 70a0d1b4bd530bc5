import CommandSupport

@main
enum Entrypoint {
    static func main() {
        CommandLineTool.start(PushCommand.self)
    }
}
