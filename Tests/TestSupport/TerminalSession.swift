import UnitTestSupport
import Foundation

/// A real terminal for tests: a tmux server of its own, with one window running a shell command.
/// What a user would see is read with `capture-pane`, which renders the escape sequences a
/// program wrote as the screen shows them.
public final class TerminalSession: Sendable {
    private let socket: String
    private let scratch: ScratchDirectory
    /// The tmux server's process and the window's shell, ended with the session.
    private let processes: [pid_t]

    /// Starts `command` (a shell command line) on a terminal of `columns` × `rows`. The window
    /// stays after the command ends, so its last screen can still be read.
    public init(_ command: String, columns: Int = 110, rows: Int = 30, in scratch: ScratchDirectory) async throws {
        socket = scratch.child("tmux.sock")
        self.scratch = scratch
        // The server tmux starts lives on, with the descriptors its client was started with:
        // swift-subprocess closes every one of the test process's but stdin, stdout and stderr
        // in the child, so the server holds no pipe or socket another test is waiting on.
        _ = try await runTool("/usr/bin/tmux", ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)",
                                                command + "; sleep 600"])
        let pids = try await runTool("/usr/bin/tmux", ["-S", socket, "display-message", "-p", "#{pane_pid} #{pid}"]).stdout
        processes = pids.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
    }

    deinit {
        // By pid, not `kill-server`: the socket may be gone with the scratch directory by the
        // time a client would connect; SIGKILL, since tmux, once it has caught SIGTERM, waits
        // for clients that never come.
        for pid in processes where pid > 0 { kill(pid, SIGKILL) }
    }

    /// The tmux server is gone: what it said, for the test's report.
    public struct Gone: Error, CustomStringConvertible {
        public let description: String
    }

    /// The screen as it is now, one string per line, trailing blanks and blank lines removed.
    /// - Throws: `Gone` when tmux cannot show it (its server has ended).
    public func screen() async throws -> [String] {
        let capture = try await runTool("/usr/bin/tmux", ["-S", socket, "capture-pane", "-p"])
        guard capture.exitCode == 0 else { throw Gone(description: "tmux capture-pane exited \(capture.exitCode): \(capture.stderr)") }
        let text = capture.stdout
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }
        return Array(lines.reversed().drop { $0.isEmpty }.reversed())
    }
}
