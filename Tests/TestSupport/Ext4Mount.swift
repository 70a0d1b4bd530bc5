import UnitTestSupport
import Foundation

/// A real ext4 file system for one test, Debian's default: an image file made by `mkfs.ext4` and
/// mounted on a loop device. ext4 is where a reservation past a file's end (`fallocate` with
/// FALLOC_FL_KEEP_SIZE) behaves unlike tmpfs: a punched hole there frees nothing. Needs root and
/// a loop device; `isAllowed` says whether this machine gives them.
public final class Ext4Mount: TestMount {
    public let path: String
    private let scratch: ScratchDirectory

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    fileprivate init(size: String) async throws {
        let file = try await ImageFile("vodapp-ext4", size: size)
        scratch = file.scratch
        path = file.mountPoint
        let made = try await runTool("/sbin/mkfs.ext4", ["-q", "-F", file.image])
        let mounted = made.exitCode == 0 ? try await runTool("/bin/mount", ["-o", "loop", file.image, path]) : made
        guard mounted.exitCode == 0 else { throw Failure(description: "mkfs.ext4 or mount failed: \(mounted.stderr)") }
    }

    package func unmount() async {
        _ = try? await runTool("/bin/umount", ["-d", path])
    }

    /// Whether ext4 can be mounted here: tried once.
    public static var isAllowed: Bool {
        get async { await probe.value }
    }

    private static let probe = Task {
        guard getuid() == 0, FileManager.default.fileExists(atPath: "/sbin/mkfs.ext4"), let mount = try? await Ext4Mount(size: "8M") else {
            return false
        }
        await mount.unmount()
        return true
    }
}

/// Runs `body` with a fresh ext4 file system of `size` mounted, unmounted afterwards whatever
/// happens.
public func withExt4Mount<T>(size: String = "64M", _ body: (Ext4Mount) async throws -> T) async throws -> T {
    try await using(Ext4Mount(size: size), body)
}
