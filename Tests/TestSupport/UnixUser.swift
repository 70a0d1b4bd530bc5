import UnitTestSupport
import Foundation

/// A real Unix user of this machine, made for a test that needs a second (or third) person: a
/// system account with no home and no login shell, created with `useradd` when absent and left for
/// the next run. Only root can make one.
public struct UnixUser: Sendable {
    public let name: String
    public let uid: uid_t

    /// Whether users can be made and commands run as them here.
    public static var canBeMade: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/useradd")
            && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The user `name`, made now if this machine has none of that name.
    public init(_ name: String) async throws {
        if getpwnam(name) == nil {
            let made = try await runTool("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name])
            // Another test may have made it meanwhile (useradd says it exists: 9).
            guard made.exitCode == 0 || getpwnam(name) != nil else { throw Failure(description: "useradd \(name): \(made.stderr)") }
        }
        guard let entry = getpwnam(name) else { throw Failure(description: "no user \(name)") }
        self.name = name
        uid = entry.pointee.pw_uid
    }

    /// Runs `tool` with `arguments` as this user, with `runuser`.
    public func run(_ tool: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil) async throws -> ToolRun {
        try await runTool("/usr/sbin/runuser", ["-u", name, "--", tool] + arguments, stdin: stdin, environment: environment)
    }
}
