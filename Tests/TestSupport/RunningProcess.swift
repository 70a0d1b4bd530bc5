import UnitTestSupport
import Foundation
import NIOConcurrencyHelpers
import Subprocess

/// A long-running executable under test (`vodapp listen`, `webhook`): its output as it comes,
/// signals, and its exit.
///
/// The child starts with every signal at its default, whatever this process ignores, and with
/// no descriptor of this process but its stdin (/dev/null), stdout and stderr (swift-subprocess
/// does both). A task on Dispatch's threads (`DispatchExecutor`) runs it from start to end, so
/// its output is collected as it comes even while the tests keep the cooperative pool busy;
/// dropping the `RunningProcess` cancels that task, which ends a child still running with
/// SIGTERM, then SIGKILL 5 s later.
public final class RunningProcess: Sendable {
    public let pid: Int32
    private let record: Record
    private let run: Task<Void, Never>

    /// What the child has printed so far and how it ended, filled by the task that runs it.
    private final class Record: Sendable {
        let stdout = NIOLockedValueBox<[UInt8]>([])
        let stderr = NIOLockedValueBox<[UInt8]>([])
        let exit = NIOLockedValueBox<ChildLifetime?>(nil)
        /// The exit status once the child has been reaped, or why it could not be waited for.
        let status = NIOLockedValueBox<Result<Int32, any Error>?>(nil)
    }

    /// Starts `executable arguments…` with `environment`; returns once it has started.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]) async throws {
        let record = Record()
        let configuration = Configuration(child: executable, arguments, environment: environment)
        var run: Task<Void, Never>?
        pid = try await withCheckedThrowingContinuation { (started: CheckedContinuation<Int32, any Error>) in
            run = Task(executorPreference: DispatchExecutor.shared) { await Self.run(configuration, record: record, started: started) }
        }
        self.record = record
        self.run = run!
    }

    deinit {
        run.cancel()
    }

    private static func run(_ configuration: Configuration, record: Record, started: CheckedContinuation<Int32, any Error>) async {
        var configuration = configuration
        // As a service manager stops a service: SIGTERM, and SIGKILL if that is not enough.
        configuration.platformOptions.teardownSequence = [.send(signal: .terminate, allowedDurationToNextStep: .seconds(5))]
        var hasStarted = false
        do {
            let result = try await Subprocess.run(configuration, input: .none, output: .sequence, error: .sequence) { execution in
                record.exit.withLockedValue { $0 = ChildLifetime(execution.processIdentifier) }
                hasStarted = true
                started.resume(returning: execution.processIdentifier.value)
                async let stdout: Void = collect(execution.standardOutput, into: record.stdout)
                async let stderr: Void = collect(execution.standardError, into: record.stderr)
                _ = await (stdout, stderr)
            }
            record.exit.withLockedValue { $0?.note() }
            record.status.withLockedValue { $0 = .success(result.terminationStatus.codeAndExited.0) }
        } catch {
            if hasStarted {
                record.status.withLockedValue { $0 = .failure(error) }
            } else {
                started.resume(throwing: error)
            }
        }
    }

    /// Appends what a pipe delivers as it comes, until the child closes it or has ended (then
    /// swift-subprocess stops reading, even if a grandchild holds the pipe open).
    private static func collect(_ output: SubprocessOutputSequence, into bytes: NIOLockedValueBox<[UInt8]>) async {
        do {
            for try await buffer in output {
                buffer.withUnsafeBytes { chunk in bytes.withLockedValue { $0.append(contentsOf: chunk) } }
            }
        } catch {
            // A pipe that fails to read ends the collection; the exit is still waited for.
        }
    }

    public var stdout: String { record.stdout.withLockedValue { String(decoding: $0, as: UTF8.self) } }
    public var stderr: String { record.stderr.withLockedValue { String(decoding: $0, as: UTF8.self) } }
    public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    /// False once the process has ended and been reaped.
    public var isRunning: Bool { record.status.withLockedValue { $0 == nil } }
    /// When the process ended, as the system reported it; nil while it runs.
    public var endedAt: ContinuousClock.Instant? { record.exit.withLockedValue { $0?.endedAt } }

    /// The process's resident memory now, in bytes (VmRSS in /proc), or nil once it is gone.
    public var residentBytes: Int? { memoryFigure("VmRSS") }

    /// The most resident memory the process has had, in bytes (VmHWM), or nil once it is gone.
    public var peakResidentBytes: Int? { memoryFigure("VmHWM") }

    private func memoryFigure(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return kilobytes * 1024
    }

    /// How many descriptors the process has open now.
    public var openDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// stdout's lines that are JSON objects.
    public var jsonLines: [[String: Any]] {
        stdoutLines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Polls `condition` until it holds or `timeout` passes.
    public func wait(for what: String, timeout: Duration = .seconds(60), until condition: () -> Bool) async throws {
        try await waitUntil(what, timeout: timeout, detail: { "; stdout: \(stdout.suffix(2000)) stderr: \(stderr.suffix(2000))" },
                            condition)
    }

    /// Sends `signal` to the process, as long as it has not been reaped (after that its pid may
    /// be another process's).
    public func signal(_ signal: Int32) {
        record.status.withLockedValue { status in
            if status == nil { kill(pid, signal) }
        }
    }

    /// Waits for the process to exit and returns its exit status (the signal's number when a
    /// signal ended it). `endedAt` is known by then.
    public func exitStatus(timeout: Duration = .seconds(40)) async throws -> Int32 {
        try await wait(for: "the process to exit", timeout: timeout) { !isRunning }
        return try record.status.withLockedValue { $0 }!.get()
    }
}
