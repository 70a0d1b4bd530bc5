import Foundation
import Testing
import VODAppBase

/// The change time as a placed file's fingerprint: what it reads, where it is trusted, and that
/// every way of changing a file in place, its old modification time put back or not, changes it
/// while reading the file does not.
@Suite struct ChangeTimeFingerprintTests {
    private func status(seconds: Int, nanoseconds: Int) -> stat {
        var info = stat()
        info.st_ctim = timespec(tv_sec: seconds, tv_nsec: nanoseconds)
        return info
    }

    @Test func itIsTheSecondsAndNineDigitsOfNanosecondsAndNoneWithoutNanoseconds() {
        #expect(ChangeTimeFingerprint.of(status(seconds: 1_764_290_000, nanoseconds: 5)) == "ctime:1764290000.000000005")
        #expect(ChangeTimeFingerprint.of(status(seconds: 1_764_290_000, nanoseconds: 999_999_999)) == "ctime:1764290000.999999999")
        #expect(ChangeTimeFingerprint.of(status(seconds: 7, nanoseconds: 120_000_000)) == "ctime:7.120000000")
        // A file system that keeps seconds only: no fingerprint, the bytes are digested instead.
        #expect(ChangeTimeFingerprint.of(status(seconds: 1_764_290_000, nanoseconds: 0)) == nil)
        // Never mistaken for a digest, which is 64 hexadecimal digits.
        #expect(ChangeTimeFingerprint.isChangeTime("ctime:7.120000000"))
        #expect(!ChangeTimeFingerprint.isChangeTime(String(repeating: "c", count: 64)))
    }

    @Test func onlyLinuxsOwnDiskFileSystemsAndTmpfsAreTrusted() {
        for trusted: UInt32 in [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994, 0xF2F5_2010, 0xCA45_1A4E] {
            #expect(ChangeTimeFingerprint.keepsChangeTimes(fileSystemType: trusted), "\(String(trusted, radix: 16))")
        }
        // FAT, exFAT, FUSE (exfat-fuse, ntfs-3g, sshfs), NFS, SMB, NTFS (ntfs3), overlayfs, 9p.
        for untrusted: UInt32 in [0x4D44, 0x2011_BAB0, 0x6573_5546, 0x6969, 0xFE53_4D42, 0x7366_746E, 0x794C_7630, 0x0102_1997] {
            #expect(!ChangeTimeFingerprint.keepsChangeTimes(fileSystemType: untrusted), "\(String(untrusted, radix: 16))")
        }
    }

    /// On tmpfs (/dev/shm, on every Linux): the file's fingerprint moves with every change made
    /// in place, even one that puts the old modification time back, and stays while it is read.
    @Test func everyChangeInPlaceMovesItAndReadingDoesNot() throws {
        let folder = "/dev/shm"
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(ChangeTimeFingerprint.keepsChangeTimes(descriptor), "/dev/shm is tmpfs")
        let path = folder + "/vodapp-ctime-\(getpid())"
        defer { unlink(path) }
        let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0) })
        try bytes.write(to: URL(fileURLWithPath: path))
        func fingerprint() throws -> String {
            var info = stat()
            try #require(stat(path, &info) == 0)
            return try #require(ChangeTimeFingerprint.of(info))
        }
        func modified() throws -> timespec {
            var info = stat()
            try #require(stat(path, &info) == 0)
            return info.st_mtim
        }
        // Linux stamps files from a clock that may move once a tick (4 ms at 250 Hz, before
        // 6.13's fine-grained stamps): each change below waits for the next tick, as a user's
        // edit of a file placed long before would come after many.
        func nextTick() { usleep(20_000) }
        var last = try fingerprint()

        // Read whole: unchanged.
        _ = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try fingerprint() == last)

        // The same bytes written over in place, the old time put back (`cp -p`, `touch -d`).
        let before = try modified()
        nextTick()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: bytes)
        try handle.close()
        var times = [before, before]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(try modified().tv_sec == before.tv_sec && modified().tv_nsec == before.tv_nsec)
        let afterWrite = try fingerprint()
        #expect(afterWrite != last)
        last = afterWrite

        // Its mode alone.
        nextTick()
        #expect(chmod(path, 0o600) == 0)
        let afterMode = try fingerprint()
        #expect(afterMode != last)
        last = afterMode

        // Renamed away and back.
        nextTick()
        #expect(rename(path, path + "-away") == 0)
        #expect(rename(path + "-away", path) == 0)
        #expect(try fingerprint() != last)
    }
}
