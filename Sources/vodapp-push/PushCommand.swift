import ArgumentParser
import CommandSupport

struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vodapp-push",
        abstract: "Push-simulation helper for vodapp: send pushes, serve sample media, run the demo.",
        discussion: """
        It replaces the SimulatorRemoteNotifications library and its sender app: `send` speaks \
        the same one-datagram UDP protocol (and HTTP, signed), `serve` stands in for the \
        publisher's media server, and `demo` runs the whole path offline.

        Example:
          vodapp-push demo

        More: docs/PUSH.md (installed under /usr/share/doc/vodapp/).
        """,
        version: ReleaseVersion.current,
        subcommands: [Send.self, Serve.self, Demo.self]
    )
}
