import UnitTestSupport
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

        public init(exitCode: Int32, stdout: String, stderr: String, wallSeconds: Double) {
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

    /// Environment for a run: no display, and session and system bus addresses that lead nowhere,
    /// unless a test gives buses of its own, so that no test ever reaches the developer's real
    /// desktop, NetworkManager or power profile.
    public static func environment(bus: String? = nil, systemBus: String? = nil, extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus ?? "unix:path=/nonexistent/vodapp-test-bus"
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus ?? "unix:path=/nonexistent/vodapp-test-system-bus"
        environment["VODAPP_DIR"] = nil
        return environment.merging(extra) { $1 }
    }

    public init(tool: String = "vodapp") {
        self.tool = tool
    }

    /// What starting the tool costs on this machine now: the wall time of `--version`. The budget
    /// counts from the tool's first line of code; before it, the loader links a debug build's 160
    /// libraries, which took over a second beside the full suite. A bound on a long run's wall
    /// time allows for it, measured just before, so that what it checks is the deadline's.
    public func startUpSeconds() async throws -> Double {
        try await run(["--version"]).wallSeconds
    }

    /// Runs `tool arguments…`, feeding `stdin` when given.
    public func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = Self.environment()) async throws -> Run {
        // A run that hangs is killed rather than left to hold the suite: every run here has a
        // budget far below this.
        let run = try await runTool(Self.productsDirectory + "/" + tool, arguments, stdin: stdin, environment: environment,
                                    timeout: .seconds(600))
        return Run(exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr, wallSeconds: run.wallSeconds)
    }
}
