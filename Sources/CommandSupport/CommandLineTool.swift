import ArgumentParser
import VODAppTransfer

/// How both executables start and end: one shape for `vodapp` and `vodapp-push`.
///
/// The process clock is read first (a delivery's budget counts from process start), libcurl's
/// global set-up runs before any other thread exists, and whatever a command throws ends the
/// process one way: a library's error as one line on stderr with its exit status
/// (`CommandFailure`), anything else as ArgumentParser ends it (64 for a bad command line,
/// `ExitCode`, `--help`).
public enum CommandLineTool {
    public static func main<Command: AsyncParsableCommand>(_ command: Command.Type) async -> Never {
        _ = ProcessClock.launch
        Curl.initialize()
        do {
            var parsed = try command.parseAsRoot()
            if var asynchronous = parsed as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try parsed.run()
            }
            command.exit()
        } catch {
            CommandFailure(error)?.exit()
            command.exit(withError: error)
        }
    }
}
