import ArgumentParser
import CFileShims
import Foundation

/// How both executables start and end: one shape for `vodapp` and `vodapp-push`.
///
/// The process clock is read first (a delivery's budget counts from process start), and whatever a
/// command throws ends the process one way: a library's error as one line on stderr with its exit
/// status (`CommandFailure`), anything else as ArgumentParser ends it (64 for a bad command line,
/// `ExitCode`, `--help`).
public enum CommandLineTool {
    /// Runs `command` on the concurrency runtime's threads, and parks the main thread for good:
    /// what an `async` entry point does, without `dispatch_main`. Its `pthread_exit` unwound the
    /// main thread's stack through the executable's unwind tables at every start, a megabyte of
    /// them paged in for nothing.
    public static func start<Command: AsyncParsableCommand>(_ command: Command.Type) -> Never {
        // Two malloc arenas, set before any thread starts, rather than glibc's one per thread up
        // to eight per core: each of the syncer's 16 threads reads a placed file into a buffer of
        // its own, and an arena each kept 2 MiB more of a delivery's peak memory, for no time
        // saved on two cores.
        vod_limit_malloc_arenas(2)
        Task.detached { await main(command) }
        // Parked as dispatch_main leaves the main thread on Linux (`_dispatch_sigsuspend`): every
        // signal unblocked, waiting for them. The runtime's threads block them, so this is the
        // thread a signal comes to: one whose default action ends the process still does
        // (SIGTERM to `vodapp-push serve`, which traps none), and a trapped one reaches its
        // source (`SignalTrap`) as it did. `main` ends the process.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        while true { sigsuspend(&none) }
    }

    public static func main<Command: AsyncParsableCommand>(_ command: Command.Type) async -> Never {
        _ = ProcessClock.launch
        let name = command.configuration.commandName ?? "vodapp"
        if let word = CommandLine.arguments.dropFirst().first, name == "vodapp", isURL(word) {
            // Read as a payload file, it would be "No such file or directory".
            FileHandle.standardError.write(Data("\(name): '\(redactingPasswords(word))' is a URL, not a payload file: 'vodapp get URL' fetches it (see 'vodapp get --help')\n".utf8))
            command.exit(withError: ExitCode.validationFailure)
        }
        if let word = CommandLine.arguments.dropFirst().first, let near = misspeltCommand(word, of: command) {
            // Read as a payload file, it would fail as one that is missing: say what it likely was.
            FileHandle.standardError.write(Data("\(name): '\(word)' is neither a command nor a payload file; did you mean '\(near)'? (see '\(name) --help')\n".utf8))
            command.exit(withError: ExitCode.validationFailure)
        }
        if let word = commandAfterOptions(CommandLine.arguments.dropFirst(), of: command) {
            FileHandle.standardError.write(Data("\(name): the command comes first, then its options: \(name) \(word) [options] (see '\(name) \(word) --help')\n".utf8))
            command.exit(withError: ExitCode.validationFailure)
        }
        do {
            var parsed = try command.parseAsRoot()
            if var asynchronous = parsed as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try parsed.run()
            }
            command.exit()
        } catch let code as ExitCode {
            // A command's own status (a delivery that failed, nothing new): nothing to say, and
            // ArgumentParser would build its help to learn that.
            exit(code.rawValue)
        } catch {
            CommandFailure(error)?.exit()
            if command.exitCode(for: error) == .validationFailure {
                // One line, as every other error: what is wrong, and where to read more.
                FileHandle.standardError.write(Data((usageError(error, of: command) + "\n").utf8))
                command.exit(withError: ExitCode.validationFailure)
            }
            command.exit(withError: error)
        }
    }

    /// Whether `word`, given where a payload file goes, is a web URL and no file.
    static func isURL(_ word: String) -> Bool {
        let lowered = word.lowercased()
        return (lowered.hasPrefix("http://") || lowered.hasPrefix("https://")) && !FileManager.default.fileExists(atPath: word)
    }

    /// The command `word` likely meant, when it is none, no file, and close to one.
    ///
    /// A word that is a file is looked at first: that is every delivery's command line, which
    /// then lists no command names (each subcommand should name itself in its configuration:
    /// one named after its type is reflected at every start).
    static func misspeltCommand<Command: ParsableCommand>(_ word: String, of command: Command.Type) -> String? {
        guard !word.hasPrefix("-"), !FileManager.default.fileExists(atPath: word) else { return nil }
        let commands = command.configuration.subcommands.map { $0._commandName }
        guard !commands.contains(word) else { return nil }
        return commands.first { isNear(word, $0) }
    }

    /// A command named after options (`vodapp --dir x status`), which would be read as the
    /// default command's payload file: the first word is an option, and a later one is a command
    /// and no file.
    static func commandAfterOptions<Command: ParsableCommand>(_ arguments: ArraySlice<String>, of command: Command.Type) -> String? {
        guard arguments.first?.hasPrefix("-") == true, arguments.first != "-",
              arguments.contains(where: { !$0.hasPrefix("-") }) else { return nil }
        let commands = command.configuration.subcommands.map { $0._commandName }
        return arguments.first { commands.contains($0) && !FileManager.default.fileExists(atPath: $0) }
    }

    /// A bad command line as one line: ArgumentParser's message without its usage block, and the
    /// command's `--help` to read.
    static func usageError<Command: ParsableCommand>(_ error: any Error, of command: Command.Type) -> String {
        let name = command.configuration.commandName ?? "vodapp"
        // The first line, and a list of choices ArgumentParser puts on lines of their own after it.
        // Redacted before it is cut into lines: a password may hold a newline.
        let lines = redactingPasswords(command.message(for: error)).split(separator: "\n")
        let choices = lines.dropFirst().prefix { $0.hasPrefix("  - ") }.map { $0.dropFirst(4) }
        let message = (lines.first.map(String.init) ?? "bad command line") + (choices.isEmpty ? "" : " " + choices.joined(separator: ", "))
        let help = command.fullMessage(for: error).split(separator: "\n")
            .compactMap { line -> String? in
                guard let start = line.range(of: "See '"), let end = line[start.upperBound...].firstIndex(of: "'"),
                      line[start.upperBound..<end].hasSuffix("--help") else { return nil }
                return String(line[start.upperBound..<end])
            }.first ?? "\(name) --help"
        let line = "\(name): \(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message) (see '\(help)')"
        return redactingPasswords(line)
    }

    /// ArgumentParser repeats a refused value whole: a broker URL's password is not shown. The
    /// passwords are taken from the broker URLs on the command line as the parser reads them
    /// (the user info runs to the authority's last `@`, and may hold spaces, quotes and `@`), and
    /// each `user:password@` becomes `user:***@`; a pattern catches what is left.
    static func redactingPasswords(_ line: String, arguments: [String] = CommandLine.arguments) -> String {
        var line = line
        for argument in arguments {
            let value = argument.hasPrefix("--") ? argument.split(separator: "=", maxSplits: 1).last.map(String.init) ?? argument : argument
            guard let scheme = value.range(of: "://"), value[..<scheme.lowerBound].lowercased().hasPrefix("mqtt") else { continue }
            let rest = value[scheme.upperBound...]
            // The authority ends at the first "/" after the last "@" (a password may hold "/"
            // only escaped, and is refused otherwise).
            guard let at = rest.lastIndex(of: "@") else { continue }
            let userInfo = rest[..<at]
            guard let colon = userInfo.firstIndex(of: ":"), userInfo.index(after: colon) < userInfo.endIndex else { continue }
            let user = userInfo[..<colon]
            line = line.replacingOccurrences(of: "\(userInfo)@", with: "\(user):***@")
        }
        return line.replacing(/(?i)(mqtts?:\/\/[^\s\/@:']*):[^\s@']*@/) { "\($0.output.1):***@" }
    }

    /// Whether `word` is `command` with at most two letters changed, added, dropped or swapped.
    static func isNear(_ word: String, _ command: String) -> Bool {
        let a = Array(word.lowercased()), b = Array(command)
        guard a != b, abs(a.count - b.count) <= 2 else { return false }
        var distance = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { distance[i][0] = i }
        for j in 0...b.count { distance[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                distance[i][j] = min(distance[i - 1][j] + 1, distance[i][j - 1] + 1, distance[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance[i][j] = min(distance[i][j], distance[i - 2][j - 2] + 1)
                }
            }
        }
        return distance[a.count][b.count] <= 2
    }
}
