import Foundation

/// A small tmpfs mounted for one test, to stage a full disk. Needs the right to mount (root in
/// most CI containers); `isAllowed` says whether this machine gives it.
public struct TmpfsMount: Sendable {
    public let path: String

    public enum Failure: Error {
        case mountFailed(String)
    }

    /// - Parameter readOnly: mounts it read-only, to stage a DIR nobody can write, root included.
    public init(at path: String, size: String, readOnly: Bool = false) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let options = "size=\(size)" + (readOnly ? ",ro" : "")
        let status = Self.run("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", path])
        guard status == 0 else { throw Failure.mountFailed("mount exited \(status)") }
        self.path = path
    }

    public func unmount() {
        _ = Self.run("/bin/umount", [path])
    }

    /// Whether a tmpfs can be mounted here: tried once, on a throwaway directory.
    public static let isAllowed: Bool = {
        guard let scratch = try? ScratchDirectory("vodapp-tmpfs-probe"),
              let mount = try? TmpfsMount(at: scratch.child("probe"), size: "64k") else { return false }
        mount.unmount()
        return true
    }()

    private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return -1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
