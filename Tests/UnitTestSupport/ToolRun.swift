import Foundation
import Subprocess

/// What a program the tests run (ffmpeg, ffprobe, mpv, curl, openssl) printed and how it exited.
public struct ToolRun: Sendable {
    /// The exit code, or the signal's number when a signal ended it.
    public let exitCode: Int32
    /// Whether it exited (rather than being killed by a signal, the timeout's SIGKILL included).
    public let exited: Bool
    public let stdout: String
    public let stderr: String
    /// From the moment the kernel made the process to the moment it ended (`ChildLifetime`).
    public let wallSeconds: Double
}

/// Whether `tool` (a path, or a name in /usr/bin) is installed. A unit test that needs a real
/// program is enabled only where it is: `swift test --skip EndToEndTests` needs only the `-dev`
/// libraries, and CI, which installs every tool (`scripts/install-system-packages`), runs them all.
public func isInstalled(_ tool: String) -> Bool {
    FileManager.default.isExecutableFile(atPath: tool.contains("/") ? tool : "/usr/bin/" + tool)
}

/// Runs `tool arguments…`, where `tool` is a path (with a `/`) or a name in /usr/bin, without
/// blocking a thread of the test's executor, and kills it (SIGKILL) after `timeout` so that a
/// player that never stops cannot hang the suite. `scripts/install-system-packages` installs the
/// tools.
///
/// The child starts with every signal at its default and no descriptor of the test process but
/// its stdin, stdout and stderr (swift-subprocess does both). Its output goes to files: a child
/// writing to a pipe would wait whenever a loaded test process is slow to drain it, and the
/// time limits the tests assert on `wallSeconds` are the child's, not the harness's.
/// - Parameters:
///   - stdin: fed through a pipe, closed once written; none means /dev/null.
///   - environment: the child's environment; nil for the test process's own.
public func runTool(_ tool: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
                    timeout: Duration = .seconds(60)) async throws -> ToolRun {
    let executable = tool.contains("/") ? tool : "/usr/bin/" + tool
    guard isInstalled(executable) else { throw ToolMissing(tool: executable) }
    let configuration = Configuration(child: executable, arguments, environment: environment)
    // On threads of their own (`DispatchExecutor`): the run and its timer do not wait for a busy
    // cooperative pool.
    let finished = try await withTaskExecutorPreference(DispatchExecutor.shared) {
        try await withThrowingTaskGroup(of: FinishedTool?.self) { group in
            group.addTask { try await FinishedTool(configuration, stdin: stdin) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            // Whichever ends first cancels the other: a run that ended stops the timer, and a timer
            // that ran out cancels the run, which swift-subprocess answers with SIGKILL and then
            // returns what the tool printed until then.
            var finished: FinishedTool?
            while let next = try await group.next() {
                finished = finished ?? next
                group.cancelAll()
            }
            return finished
        }
    }
    guard let finished else { throw CancellationError() }
    let elapsed = finished.started.duration(to: finished.ended)
    return ToolRun(exitCode: finished.code, exited: finished.exited,
                   stdout: String(decoding: finished.stdout, as: UTF8.self),
                   stderr: String(decoding: finished.stderr, as: UTF8.self),
                   wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

public struct ToolMissing: Error, CustomStringConvertible {
    public let tool: String
    public var description: String { "\(tool) is missing: run scripts/install-system-packages" }
}

/// A tool run that has ended.
private struct FinishedTool: Sendable {
    let code: Int32
    let exited: Bool
    let stdout: [UInt8]
    let stderr: [UInt8]
    let started: ContinuousClock.Instant
    let ended: ContinuousClock.Instant

    /// Runs the tool with `stdin` as its standard input (nil: /dev/null), and its output in files.
    init(_ configuration: Configuration, stdin: Data?) async throws {
        let scratch = try ScratchDirectory("vodapp-tool")
        let stdoutPath = scratch.child("stdout")
        let stderrPath = scratch.child("stderr")
        // stdin comes from a file too: the child reads it at its pace, and one that exits without
        // reading it all (a payload refused for its size) leaves nothing behind. swift-subprocess
        // 1.0.2 traps when a child ends before a pipe's writer is done with it.
        var inputFile: CInt?
        if let stdin {
            let stdinPath = scratch.child("stdin")
            try stdin.write(to: URL(fileURLWithPath: stdinPath))
            inputFile = open(stdinPath, O_RDONLY | O_CLOEXEC)
            guard inputFile! >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        let outputFiles: (CInt, CInt)
        do {
            outputFiles = (try Self.create(stdoutPath), try Self.create(stderrPath))
        } catch {
            _ = inputFile.map(close)
            throw error
        }
        let output = FileDescriptorOutput.fileDescriptor(.init(rawValue: outputFiles.0), closeAfterSpawningProcess: true)
        let error = FileDescriptorOutput.fileDescriptor(.init(rawValue: outputFiles.1), closeAfterSpawningProcess: true)
        let result = if let inputFile {
            try await Subprocess.run(configuration, input: .fileDescriptor(.init(rawValue: inputFile), closeAfterSpawningProcess: true),
                                     output: output, error: error) { ChildLifetime($0.processIdentifier) }
        } else {
            try await Subprocess.run(configuration, input: .none, output: output, error: error) { ChildLifetime($0.processIdentifier) }
        }
        let lifetime = result.closureResult
        lifetime.note()
        (code, exited) = result.terminationStatus.codeAndExited
        stdout = ScratchDirectory.contents(stdoutPath) ?? []
        stderr = ScratchDirectory.contents(stderrPath) ?? []
        started = lifetime.startedAt
        ended = lifetime.endedAt ?? .now
    }

    /// A new file at `path`, open for writing.
    private static func create(_ path: String) throws -> CInt {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return descriptor
    }
}

extension Configuration {
    /// `executable arguments…` with `environment`, or the test process's own when nil.
    package init(child executable: String, _ arguments: [String], environment: [String: String]?) {
        let variables = environment.map { environment in
            Environment.custom(Dictionary(uniqueKeysWithValues: environment.compactMap { name, value in
                Environment.Key(rawValue: name).map { ($0, value) }
            }))
        }
        self.init(executable: .path(.init(executable)), arguments: Arguments(arguments), environment: variables ?? .inherit)
    }
}

extension TerminationStatus {
    /// The code as Foundation's Process gave it (the signal's number for a signal), and whether
    /// the process exited.
    package var codeAndExited: (Int32, Bool) {
        switch self {
        case .exited(let code): (code, true)
        case .signaled(let signal): (signal, false)
        }
    }
}
