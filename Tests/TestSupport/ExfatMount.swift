import UnitTestSupport
import Foundation

/// A real exFAT file system (the one on USB sticks and SD cards) for one test: an image file on
/// a loop device, made by `mkfs.exfat` and mounted by exfat-fuse, Debian's exFAT driver. It
/// refuses `link(2)`, as every FAT does. Needs root, a loop device and /dev/fuse; `isAllowed`
/// says whether this machine gives them.
///
/// mount.exfat-fuse leaves a daemon behind, which inherits only the descriptors it is started
/// with: swift-subprocess closes every other one in the child, so the daemon cannot hold a pipe
/// or socket of the test process for as long as the file system is mounted.
public final class ExfatMount: TestMount {
    public let path: String
    private let device: String
    private let scratch: ScratchDirectory

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    fileprivate init(size: String) async throws {
        let file = try await ImageFile("vodapp-exfat", size: size)
        scratch = file.scratch
        path = file.mountPoint
        let attached = try await runTool("/sbin/losetup", ["-f", "--show", file.image])
        let device = attached.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard attached.succeeded, !device.isEmpty else { throw Failure(description: "losetup failed: \(attached.stderr)") }
        self.device = device
        let made = try await runTool("/sbin/mkfs.exfat", [device])
        let mounted = made.succeeded ? try await runTool("/sbin/mount.exfat-fuse", [device, path]) : made
        guard mounted.succeeded else {
            _ = try? await runTool("/sbin/losetup", ["-d", device])
            throw Failure(description: "mkfs.exfat or mount.exfat-fuse failed: \(mounted.stderr)")
        }
    }

    package func unmount() async {
        _ = try? await runTool("/bin/umount", [path])
        _ = try? await runTool("/sbin/losetup", ["-d", device])
    }

    /// Whether exFAT can be mounted here: tried once.
    public static var isAllowed: Bool {
        get async { await probe.value }
    }

    private static let probe = Task {
        guard FileManager.default.fileExists(atPath: "/sbin/mount.exfat-fuse"), let mount = try? await ExfatMount(size: "8M") else {
            return false
        }
        await mount.unmount()
        return true
    }
}

extension ToolRun {
    fileprivate var succeeded: Bool { exited && exitCode == 0 }
}

/// Runs `body` with a fresh exFAT file system of `size` mounted, unmounted afterwards whatever
/// happens.
public func withExfatMount<T>(size: String = "64M", _ body: (ExfatMount) async throws -> T) async throws -> T {
    try await using(ExfatMount(size: size), body)
}
