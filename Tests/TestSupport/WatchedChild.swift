import Foundation
import NIOConcurrencyHelpers
import Subprocess

/// A server process (nginx, mosquitto) that lives for a whole test and must not outlive the test
/// process.
///
/// A short Python launcher, run through swift-subprocess, forks a watchdog and exits once it has
/// passed on the server's pid; the watchdog starts the server and ends it when its stdin (a pipe
/// from this process, the lifeline) reaches EOF: when `end()` closes it, and when the test
/// process dies without ending it. Neither holds a descriptor of this process but 0-2
/// (swift-subprocess closes the others in the child), so the server cannot keep another test's
/// pipe open. The server gets every signal at its default, since swift-subprocess resets them in
/// the child, and its stdin, stdout and stderr are /dev/null: it logs to a file of its own.
final class WatchedChild: Sendable {
    let pid: pid_t
    /// The write end of the watchdog's stdin; nil once closed.
    private let lifeline: NIOLockedValueBox<FileHandle?>

    enum Failure: Error, CustomStringConvertible {
        case noPID(String)

        var description: String {
            switch self {
            case .noPID(let said): "the watchdog did not report the server's pid (the launcher said \"\(said)\")"
            }
        }
    }

    private init(pid: pid_t, lifeline: FileHandle) {
        self.pid = pid
        self.lifeline = NIOLockedValueBox(lifeline)
    }

    /// Starts the launcher, which starts the watchdog, which starts `executable`.
    static func launch(_ executable: String, _ arguments: [String]) async throws -> WatchedChild {
        let lifeline = Pipe()
        // Its write end is ours alone: a child started other than through swift-subprocess
        // would inherit a descriptor that is not close-on-exec, and Foundation's Pipe() does not
        // set it.
        _ = fcntl(lifeline.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        let launched = try await Subprocess.run(
            .path("/usr/bin/python3"), arguments: .init(["-c", watchdogScript, executable] + arguments),
            input: .fileDescriptor(.init(rawValue: lifeline.fileHandleForReading.fileDescriptor), closeAfterSpawningProcess: false),
            output: .string(limit: 4096), error: .discarded)
        // The watchdog has the read end now.
        try? lifeline.fileHandleForReading.close()
        let text = launched.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = pid_t(text), pid > 0 else {
            try? lifeline.fileHandleForWriting.close()
            throw Failure.noPID(text)
        }
        return WatchedChild(pid: pid, lifeline: lifeline.fileHandleForWriting)
    }

    /// Whether the server still runs (the watchdog reaps it within 50 ms of its end).
    var isRunning: Bool {
        kill(pid, 0) == 0
    }

    /// `signal` (SIGTERM unless said) to the server and EOF to the watchdog, then waits until
    /// the server is reaped, so that not even a zombie is left. Blocking, since a `deinit` cannot
    /// wait otherwise; it takes milliseconds. Idempotent.
    func end(signal: Int32 = SIGTERM) {
        guard let pipe = lifeline.withLockedValue({ handle -> FileHandle? in
            defer { handle = nil }
            return handle
        }) else { return }
        kill(pid, signal)
        try? pipe.close()
        let deadline = ContinuousClock.now + .seconds(5)
        while kill(pid, 0) == 0 && ContinuousClock.now < deadline {
            usleep(2_000)
        }
    }

    deinit {
        end()
    }

    /// argv: the server's path and arguments. stdin: the lifeline. stdout: where the server's pid goes.
    private static let watchdogScript = #"""
    import os, select, signal, sys
    # The launcher waits for the watchdog to know the server's pid and prints it before it exits:
    # swift-subprocess stops reading the launcher's stdout once the launcher has ended.
    report, reported = os.pipe()
    if os.fork() > 0:
        os.close(reported)
        os.write(1, os.read(report, 64))
        os._exit(0)
    os.close(report)
    os.setsid()
    server = os.fork()
    if server == 0:
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execv(sys.argv[1], sys.argv[1:])
    os.write(reported, b"%d\n" % server)
    os.close(reported)
    null = os.open("/dev/null", os.O_RDWR)
    os.dup2(null, 1)
    os.dup2(null, 2)
    # Until the lifeline reaches EOF or the server ends by itself (a failed start, a signal).
    alive = True
    while alive:
        readable, _, _ = select.select([0], [], [], 0.05)
        if readable and not os.read(0, 4096):
            break
        alive = os.waitpid(server, os.WNOHANG) == (0, 0)
    if alive:
        os.kill(server, signal.SIGTERM)
        os.waitpid(server, 0)
    """#
}
