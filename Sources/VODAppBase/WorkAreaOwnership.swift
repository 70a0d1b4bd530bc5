import CFileShims
import Foundation

/// Whose `DIR/.vodapp` this is. vodapp acts on what its work area says: the store's records
/// choose which files retention removes, the partials are resumed into files of DIR. A work area
/// another user made, or may write, is theirs to steer: in a shared sticky DIR, one user could
/// pre-create `.vodapp` with a forged record of another's `holiday.mp4` and have the owner's own
/// `--keep-days` remove it. So, as git's `safe.directory` and OpenSSH's `StrictModes` do, vodapp
/// uses a work area, and each file directly in it, only when the running user owns it and no one
/// else may write it; otherwise it reads nothing from it and removes nothing for it.
package enum WorkAreaOwnership {
    /// What is known of one folder or file of the work area.
    package struct Entry: Equatable, Sendable {
        package let path: String
        package let owner: uid_t
        package let mode: mode_t
        /// The group that the group's write bit is for (for a name on the way to DIR, the group
        /// of the folder that holds it); `gid_t.max` when not known.
        package let group: gid_t

        package init(path: String, owner: uid_t, mode: mode_t, group: gid_t = .max) {
            self.path = path
            self.owner = owner
            self.mode = mode
            self.group = group
        }
    }

    /// Why `entry` is not the running user's own, as one line that names it and the fix; nil when
    /// it is. `honoursPermissions` is false on a file system that keeps no Unix owner or mode
    /// (exFAT, FAT: every file shows the mount's), where the mode cannot be changed and only the
    /// owner is checked.
    /// - Parameter area: the work area `entry` is in (itself, or what holds it), which the fix
    ///   names: one command for all of it.
    package static func refusal(of entry: Entry, runningAs user: uid_t, honoursPermissions: Bool, area: String? = nil) -> String? {
        // Quoted only for a refusal: every entry of every delivery's work area is checked.
        var quoted: String { shellQuoted(area ?? entry.path) }
        if entry.owner != user {
            let theirs = userName(entry.owner).map { "user \($0) (uid \(entry.owner))" } ?? "uid \(entry.owner)"
            let yours = userName(user).map { "\($0) (uid \(user))" } ?? "uid \(user)"
            return "\(entry.path) belongs to \(theirs), not to you, \(yours): vodapp does not act on a work area another user "
                + "could have written; if it is yours, 'sudo chown -R \(userName(user) ?? String(user)) \(quoted)', "
                + "otherwise use a DIR of your own (--dir)"
        }
        let writable = entry.mode & (S_IWGRP | S_IWOTH)
        guard honoursPermissions, writable != 0 else { return nil }
        let who = writable == S_IWGRP ? "its group" : writable == S_IWOTH ? "others" : "its group and others"
        return "\(entry.path) is writable by \(who) (mode \(String(entry.mode & 0o7777, radix: 8))): vodapp does not act on a work "
            + "area another user could have written; 'chmod -R go-w \(quoted)' if nobody else did, otherwise move it aside"
    }

    /// The first reason the work area at `path` (and what is directly in it) is not the running
    /// user's own, or nil. A work area that is absent is nobody's yet: nil.
    package static func refusal(ofWorkArea path: String) -> String? {
        guard let area = try? Folder.open(path), let info = area.status() else { return nil }
        let user = geteuid()
        let honours = honoursPermissions(area.descriptor)
        if let refusal = refusal(of: Entry(path: path, owner: info.st_uid, mode: info.st_mode),
                                 runningAs: user, honoursPermissions: honours) {
            return refusal
        }
        for entry in area.entries().sorted(by: { $0.name < $1.name }) {
            // A link's own mode is always 0777 and means nothing; what it names is refused where it
            // is opened (SafeFile). Its owner still tells who planted it.
            guard let inside = area.status(entry.name) else { continue }
            let isLink = (inside.st_mode & S_IFMT) == S_IFLNK
            if let refusal = refusal(of: Entry(path: path + "/" + entry.name, owner: inside.st_uid,
                                               mode: isLink ? 0o755 : inside.st_mode),
                                     runningAs: user, honoursPermissions: honours, area: path) {
                return refusal
            }
        }
        return nil
    }

    /// Whether the file system of the open `descriptor` keeps each file's owner and mode. FAT and
    /// exFAT do not (the kernel's drivers, and exfat-fuse or ntfs-3g, block-device FUSE, show
    /// the mount's options for every file, and chmod cannot change them).
    static func honoursPermissions(_ descriptor: Int32) -> Bool {
        let type = vod_filesystem_type(descriptor)
        guard type >= 0 else { return true }
        switch UInt32(truncatingIfNeeded: type) {
        case 0x4d44, 0x2011_BAB0: return false  // MSDOS_SUPER_MAGIC, EXFAT_SUPER_MAGIC
        case 0x6573_5546: return !isBlockDeviceFUSE(descriptor)  // FUSE_SUPER_MAGIC
        default: return true
        }
    }

    /// Whether the mount of the open `descriptor` is a block-device FUSE file system (`fuseblk`:
    /// exfat-fuse, ntfs-3g), as the mount table names its type. Network and other FUSE file
    /// systems (sshfs) keep modes.
    private static func isBlockDeviceFUSE(_ descriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0,
              let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        let device = "\(major(info.st_dev)):\(minor(info.st_dev))"
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2, fields[2] == device, let separator = fields.firstIndex(of: "-"),
                  separator + 1 < fields.count else { continue }
            return fields[separator + 1].hasPrefix("fuseblk")
        }
        return false
    }

    private static func major(_ device: dev_t) -> UInt64 {
        (UInt64(device) >> 8) & 0xfff | ((UInt64(device) >> 32) & ~0xfff)
    }

    private static func minor(_ device: dev_t) -> UInt64 {
        UInt64(device) & 0xff | ((UInt64(device) >> 12) & ~0xff)
    }

    /// Whether `group` is `user`'s private group, as Debian's and Ubuntu's user private groups
    /// are (`USERGROUPS_ENAB`): the user's primary group, of the user's name, with no other member.
    /// Its write bit lets nobody else in: under umask 002, which pam_umask gives such users,
    /// every folder they make is group-writable, `~/Videos` included.
    package static func isPrivateGroup(_ group: gid_t, of user: uid_t) -> Bool {
        guard let account = getpwuid(user), account.pointee.pw_gid == group, let userName = account.pointee.pw_name,
              let entry = getgrgid(group), let groupName = entry.pointee.gr_name else { return false }
        let name = String(cString: userName)
        guard String(cString: groupName) == name else { return false }
        var members = entry.pointee.gr_mem
        while let member = members?.pointee {
            guard String(cString: member) == name else { return false }
            members = members?.advanced(by: 1)
        }
        return true
    }

    static func userName(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// `path` as a shell word, for a command the user may paste.
    private static func shellQuoted(_ path: String) -> String {
        path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+,:@".contains($0) } ? path
            : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
