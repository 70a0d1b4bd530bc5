import Foundation

/// A real exFAT file system (the one on USB sticks and SD cards) for one test: an image file on
/// a loop device, made by `mkfs.exfat` and mounted by exfat-fuse, Debian's exFAT driver. It
/// refuses `link(2)`, as every FAT does. Needs root, a loop device and /dev/fuse; `isAllowed`
/// says whether this machine gives them.
public final class ExfatMount: Sendable {
    public let path: String
    private let device: String
    private let scratch: ScratchDirectory

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(size: String = "64M") throws {
        scratch = try ScratchDirectory("vodapp-exfat")
        let image = scratch.child("image")
        path = scratch.child("mount")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.run("/usr/bin/truncate", ["-s", size, image]).status == 0 else { throw Failure(description: "truncate failed") }
        let attached = Self.run("/sbin/losetup", ["-f", "--show", image])
        guard attached.status == 0, !attached.output.isEmpty else { throw Failure(description: "losetup failed") }
        device = attached.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.run("/sbin/mkfs.exfat", [device]).status == 0,
              Self.runClosingDescriptors("/sbin/mount.exfat-fuse", [device, path]) == 0 else {
            _ = Self.run("/sbin/losetup", ["-d", device])
            throw Failure(description: "mkfs.exfat or mount.exfat-fuse failed")
        }
    }

    public func unmount() {
        _ = Self.run("/bin/umount", [path])
        _ = Self.run("/sbin/losetup", ["-d", device])
    }

    /// Whether exFAT can be mounted here: tried once.
    public static let isAllowed: Bool = {
        guard FileManager.default.fileExists(atPath: "/sbin/mount.exfat-fuse"), let mount = try? ExfatMount(size: "8M") else {
            return false
        }
        mount.unmount()
        return true
    }()

    /// Runs `tool` with every descriptor above stderr closed: mount.exfat-fuse leaves a daemon
    /// behind, which would otherwise inherit the socket by which Foundation's Process learns that
    /// a child has ended, and hold it for as long as the file system is mounted.
    private static func runClosingDescriptors(_ tool: String, _ arguments: [String]) -> Int32 {
        run("/usr/bin/python3", ["-c", "import os, sys; os.closerange(3, 65536); os.execv(sys.argv[1], sys.argv[1:])", tool] + arguments).status
    }

    /// Output goes to a file, not a pipe: mount.exfat-fuse leaves a daemon behind that would hold
    /// a pipe open for as long as the file system is mounted.
    private static func run(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
        guard let scratch = try? ScratchDirectory("vodapp-exfat-run"),
              FileManager.default.createFile(atPath: scratch.child("out"), contents: nil),
              let output = FileHandle(forWritingAtPath: scratch.child("out")) else { return (-1, "") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (-1, "")
        }
        process.waitUntilExit()
        try? output.close()
        let text = (try? String(contentsOfFile: scratch.child("out"), encoding: .utf8)) ?? ""
        return (process.terminationStatus, text)
    }
}
