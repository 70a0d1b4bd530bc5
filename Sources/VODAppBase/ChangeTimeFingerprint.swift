import CFileShims
import Glibc

/// A placed file's fingerprint where the file system itself vouches for it: the file's
/// status-change time, as the kernel set it when vodapp placed the file.
///
/// Linux sets a file's change time to the current time at every write to its bytes, at every
/// change of its size, times, mode, owner, links or extended attributes, and nothing lets a
/// process set it to another value (`utimensat` sets the other two times, and changes this one).
/// On a file system that keeps it to the nanosecond and numbers its files for good, a file whose
/// device, inode and change time are still those vodapp recorded is the file vodapp placed,
/// byte for byte: `cp` over it, `dd conv=notrunc` into it, or a write followed by `touch -d` to
/// put its old time back, each set it anew. Digesting every byte to learn the same thing (the
/// SHA-256 `FileFingerprint`) took more CPU than receiving them.
///
/// Where the file system does not keep it so, the bytes are digested as before: FAT and exFAT
/// keep no change time (Linux shows the modification time, which `touch -d` sets), FUSE and
/// network file systems report what their server says, and a file system that keeps seconds only
/// (ext4 with 128-byte inodes) shows a change time with no nanoseconds, which could hide a write
/// in the same second. A file whose change time moved for a reason that leaves its bytes alone
/// (`chmod`, a tag in an extended attribute, a rename away and back) is no longer vodapp's to
/// remove: kept, as any file vodapp cannot prove its own.
package enum ChangeTimeFingerprint {
    /// What the store's fingerprint starts with when it is a change time, not a digest (which is
    /// 64 hexadecimal digits).
    static let prefix = "ctime:"

    /// Whether the fingerprint is a change time.
    package static func isChangeTime(_ fingerprint: String) -> Bool {
        fingerprint.hasPrefix(prefix)
    }

    /// The fingerprint of a file whose status is `info`, when its change time has nanoseconds:
    /// `ctime:` and the seconds and nanoseconds since the epoch.
    package static func of(_ info: stat) -> String? {
        let nanoseconds = info.st_ctim.tv_nsec
        guard nanoseconds > 0 else { return nil }
        let fraction = String(nanoseconds)
        return prefix + String(info.st_ctim.tv_sec) + "." + String(repeating: "0", count: max(0, 9 - fraction.count)) + fraction
    }

    /// Whether the file system of type `magic` (`statfs`'s `f_type`) keeps every file's change
    /// time to the nanosecond and its inode number for good: Linux's own disk file systems and
    /// tmpfs.
    package static func keepsChangeTimes(fileSystemType magic: UInt32) -> Bool {
        switch magic {
        case 0xEF53,  // ext2, ext3, ext4
             0x5846_5342,  // XFS
             0x9123_683E,  // Btrfs
             0x0102_1994,  // tmpfs
             0xF2F5_2010,  // F2FS
             0xCA45_1A4E:  // bcachefs
            return true
        default:
            return false
        }
    }

    /// Whether the file system of the open `descriptor` keeps change times so.
    package static func keepsChangeTimes(_ descriptor: Int32) -> Bool {
        let type = vod_filesystem_type(descriptor)
        return type >= 0 && keepsChangeTimes(fileSystemType: UInt32(truncatingIfNeeded: type))
    }
}
