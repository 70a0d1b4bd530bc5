import Foundation

/// A small tmpfs mounted for one test, to stage a full disk. Needs the right to mount (root in
/// most CI containers); `isAllowed` says whether this machine gives it.
public struct TmpfsMount: TestMount {
    public let path: String

    public enum Failure: Error {
        case mountFailed(String)
    }

    /// - Parameter readOnly: mounts it read-only, to stage a DIR nobody can write, root included.
    fileprivate init(at path: String, size: String, readOnly: Bool) async throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let options = "size=\(size)" + (readOnly ? ",ro" : "")
        let mount = try await runTool("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", path])
        guard mount.exited, mount.exitCode == 0 else { throw Failure.mountFailed("mount exited \(mount.exitCode): \(mount.stderr)") }
        self.path = path
    }

    package func unmount() async {
        _ = try? await runTool("/bin/umount", [path])
    }

    /// Whether a tmpfs can be mounted here: tried once, on a throwaway directory.
    public static var isAllowed: Bool {
        get async { await probe.value }
    }

    private static let probe = Task {
        guard let scratch = try? ScratchDirectory("vodapp-tmpfs-probe"),
              let mount = try? await TmpfsMount(at: scratch.child("probe"), size: "64k", readOnly: false) else { return false }
        await mount.unmount()
        return true
    }
}

/// Runs `body` with a tmpfs of `size` mounted at `path` (created if need be), unmounted
/// afterwards whatever happens.
/// - Parameter readOnly: mounts it read-only, to stage a DIR nobody can write, root included.
public func withTmpfsMount<T>(at path: String, size: String, readOnly: Bool = false,
                              _ body: (TmpfsMount) async throws -> T) async throws -> T {
    try await using(TmpfsMount(at: path, size: size, readOnly: readOnly), body)
}
