import UnitTestSupport
import Foundation

/// A folder bind-mounted at another path for one test (`mount --bind`): the same device, so
/// nothing but the mount table tells the mount from a folder. Needs the right to mount.
public struct BindMount: TestMount {
    public let path: String

    public enum Failure: Error {
        case mountFailed(String)
    }

    fileprivate init(_ source: String, at path: String) async throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mount = try await runTool("/bin/mount", ["--bind", source, path])
        guard mount.exited, mount.exitCode == 0 else { throw Failure.mountFailed("mount exited \(mount.exitCode): \(mount.stderr)") }
        self.path = path
    }

    package func unmount() async {
        _ = try? await runTool("/bin/umount", [path])
    }
}

/// Runs `body` with `source` bind-mounted at `path` (created if need be), unmounted afterwards
/// whatever happens.
public func withBindMount<T>(_ source: String, at path: String, _ body: (BindMount) async throws -> T) async throws -> T {
    try await using(BindMount(source, at: path), body)
}
