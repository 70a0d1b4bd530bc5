import Foundation
import NIOConcurrencyHelpers

/// What a program the tests run (ffmpeg, ffprobe, mpv, curl, openssl) printed and how it exited.
public struct ToolRun: Sendable {
    public let exitCode: Int32
    /// Whether it exited (rather than being killed by a signal, the timeout's SIGKILL included).
    public let exited: Bool
    public let stdout: String
    public let stderr: String
    public let wallSeconds: Double
}

/// Runs `tool arguments…`, where `tool` is a path (with a `/`) or a name in /usr/bin, with its output in files
/// (a pipe left open by a grandchild would keep the run from ending), without blocking a thread
/// of the test's executor, and kills it after `timeout` so that a player that never stops cannot
/// hang the suite. `scripts/install-system-packages` installs the tools.
/// - Parameters:
///   - stdin: fed through a pipe, closed once written; none means /dev/null.
///   - environment: the child's environment; nil for the test process's own.
public func runTool(_ tool: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
                    timeout: Duration = .seconds(60)) async throws -> ToolRun {
    let executable = tool.contains("/") ? tool : "/usr/bin/" + tool
    guard FileManager.default.isExecutableFile(atPath: executable) else {
        throw ToolMissing(tool: executable)
    }
    let scratch = try ScratchDirectory("vodapp-tool")
    let outPath = scratch.child("stdout")
    let errPath = scratch.child("stderr")
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let input = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let watchdog = NIOLockedValueBox<Task<Void, Never>?>(nil)
    let started = ContinuousClock.now
    let ended: ContinuousClock.Instant = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { _ in continuation.resume(returning: .now) }
        do {
            try process.run()
        } catch {
            continuation.resume(throwing: error)
            return
        }
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try? input.fileHandleForWriting.close()
        }
        let pid = process.processIdentifier
        watchdog.withLockedValue {
            $0 = Task {
                do { try await Task.sleep(for: timeout) } catch { return }
                kill(pid, SIGKILL)
            }
        }
    }
    watchdog.withLockedValue { $0?.cancel() }
    let elapsed = started.duration(to: ended)
    return ToolRun(exitCode: process.terminationStatus, exited: process.terminationReason == .exit,
                   stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
                   wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

public struct ToolMissing: Error, CustomStringConvertible {
    public let tool: String
    public var description: String { "\(tool) is missing: run scripts/install-system-packages" }
}
