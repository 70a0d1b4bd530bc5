import ArgumentParser

@main
struct VODAppPush: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vodapp-push",
        abstract: "Push-simulation helper for vodapp: serves sample media on loopback.",
        version: "0.1.0",
        subcommands: [Serve.self]
    )
}
