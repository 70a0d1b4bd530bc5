import Foundation
import NIOConcurrencyHelpers

/// A long-running executable under test (`vodapp listen`, `webhook`): its output as it comes,
/// signals, and its exit.
public final class RunningProcess: Sendable {
    private let process: Process
    private let stdoutText = TextBuffer()
    private let stderrText = TextBuffer()
    private let ended = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    /// What a pipe has delivered so far; filled on Foundation's reading thread.
    private final class TextBuffer: Sendable {
        private let text = NIOLockedValueBox("")
        func append(_ data: Data) { text.withLockedValue { $0 += String(decoding: data, as: UTF8.self) } }
        var value: String { text.withLockedValue { $0 } }
    }

    /// Starts `executable arguments…` with `environment`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        self.process = process
        // Noted when Foundation reaps the child, not when a test next looks: on a loaded machine
        // the test's own polling can run seconds late.
        process.terminationHandler = { [ended] _ in ended.withLockedValue { $0 = .now } }
        out.fileHandleForReading.readabilityHandler = { [stdoutText] handle in
            let data = handle.availableData
            stdoutText.append(data)
        }
        err.fileHandleForReading.readabilityHandler = { [stderrText] handle in
            let data = handle.availableData
            stderrText.append(data)
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    public var stdout: String { stdoutText.value }
    public var stderr: String { stderrText.value }
    public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    public var isRunning: Bool { process.isRunning }
    /// When the process ended, as the system reported it; nil while it runs.
    public var endedAt: ContinuousClock.Instant? { ended.withLockedValue { $0 } }
    public var pid: Int32 { process.processIdentifier }

    /// The process's resident memory now, in bytes (VmRSS in /proc), or nil once it is gone.
    public var residentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
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
    public func wait(for what: String, timeout: Duration = .seconds(20), until condition: () -> Bool) async throws {
        try await waitUntil(what, timeout: timeout, detail: { "; stdout: \(stdout.suffix(2000)) stderr: \(stderr.suffix(2000))" },
                            condition)
    }

    public func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit and returns its exit status. It waits for the termination
    /// handler as well: Foundation clears `isRunning` before it calls the handler, so a test that
    /// read `endedAt` right after `isRunning` turned false could find it still nil.
    public func exitStatus(timeout: Duration = .seconds(40)) async throws -> Int32 {
        try await wait(for: "the process to exit", timeout: timeout) { !process.isRunning && endedAt != nil }
        return process.terminationStatus
    }
}
