import Foundation

/// Runs a built executable (`vodapp`, or `vodapp-push`) as a user would, and records what they
/// would see.
public struct VODAppRunner: Sendable {
    /// @unchecked: every property is a constant, and `report` holds only JSON values that are
    /// never mutated, so a run can be handed between tasks.
    public struct Run: @unchecked Sendable {
        public let exitCode: Int32
        public let stdout: String
        public let stderr: String
        /// From just before the process was started to its exit.
        public let wallSeconds: Double
        /// stdout parsed as the JSON report, once; nil when it is not one JSON object.
        public let report: [String: Any]?

        init(exitCode: Int32, stdout: String, stderr: String, wallSeconds: Double) {
            self.exitCode = exitCode
            self.stdout = stdout
            self.stderr = stderr
            self.wallSeconds = wallSeconds
            report = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
        }

        public var items: [[String: Any]] {
            report?["items"] as? [[String: Any]] ?? []
        }

        public func item(_ key: String) -> [String: Any]? {
            items.first { $0["key"] as? String == key }
        }
    }

    /// The build products directory, where the executables are, found from the test bundle.
    public static let productsDirectory: String = {
        if let path = ProcessInfo.processInfo.environment["VODAPP_EXECUTABLE"] {
            return URL(fileURLWithPath: path).deletingLastPathComponent().path
        }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("vodapp").path) { return dir.path }
            dir = dir.deletingLastPathComponent()
        }
        return ".build/debug"
    }()

    /// The `vodapp` executable.
    public static var executable: String { productsDirectory + "/vodapp" }

    /// The executable this runner starts.
    public let tool: String

    /// Environment for a run: no display and a session bus address that leads nowhere, unless a
    /// test gives a bus of its own, so that no test ever reaches the developer's real desktop.
    public static func environment(bus: String? = nil, extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus ?? "unix:path=/nonexistent/vodapp-test-bus"
        environment["VODAPP_DIR"] = nil
        return environment.merging(extra) { $1 }
    }

    public init(tool: String = "vodapp") {
        self.tool = tool
    }

    /// Runs `tool arguments…`, feeding `stdin` when given.
    public func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = Self.environment()) async throws -> Run {
        let scratch = try ScratchDirectory("vodapp-run")
        let outPath = scratch.child("stdout")
        let errPath = scratch.child("stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.productsDirectory + "/" + tool)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input

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
        }
        let elapsed = started.duration(to: ended)
        return Run(
            exitCode: process.terminationStatus,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
    }
}
