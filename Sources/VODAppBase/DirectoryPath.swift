import Foundation

/// Whether the way to DIR can be changed by another user: a folder on it that someone else may
/// rename entries in can have DIR (or a folder on the way) swapped for a link to anywhere, and
/// a run would then work, and remove, in a folder the user never named. The second attacker trial
/// moved `share/vids` aside for a link to the user's `~/Videos/VODApp`, in a `share` of its own,
/// and the user's next run with `--max-total` removed four of that library's files.
///
/// As OpenSSH's StrictModes asks of the way to `~/.ssh`: each folder on the way is the user's or
/// root's, and nobody else may write in it, unless it is sticky (as /tmp is), which keeps others
/// from renaming what is not theirs, and owned by root or the user, who could.
package enum DirectoryPath {
    /// A folder on the way to DIR, as `lstat` showed it: what the work area's rule knows of a
    /// folder, its path, owner and mode.
    package typealias Step = WorkAreaOwnership.Entry

    /// Why another user could change where `steps` (from `/` to DIR's parent) lead, or nil.
    /// On a file system that keeps no modes (FAT, exFAT: every file shows the mount's), only the
    /// owner is asked of a step (`honoursPermissions` false).
    /// A folder writable by the user's private group (`WorkAreaOwnership.isPrivateGroup`) is
    /// written by nobody else: under umask 002 every folder the user makes is.
    package static func refusal(of steps: [Step], runningAs user: uid_t, honoursPermissions: (Step) -> Bool = { _ in true },
                                isPrivateGroup: (gid_t) -> Bool = { _ in false }) -> String? {
        for step in steps {
            let trusted = step.owner == 0 || step.owner == user
            let othersWrite = honoursPermissions(step) && Self.othersWrite(step.mode, group: step.group, isPrivateGroup)
            let sticky = step.mode & S_ISVTX != 0
            if trusted, !othersWrite || sticky { continue }
            let who = !trusted ? (WorkAreaOwnership.userName(step.owner).map { "user \($0)" } ?? "uid \(step.owner)")
                : step.mode & S_IWOTH != 0 ? "any user" : "its group"
            return "\(step.path) can be changed by \(who) (owner uid \(step.owner), mode \(String(step.mode & 0o7777, radix: 8)))"
        }
        return nil
    }

    /// Why another user could replace a name on the way, or nil. In a folder others may write in
    /// (which passes `refusal(of:)` only when it is sticky), a name is its owner's to rename or
    /// replace: one that is not the user's or root's, a link or a folder, can become a link to
    /// anywhere. The fourth attacker trial put a link of its own, in a sticky family folder, in
    /// place of the DIR it had made there, to the user's own library.
    /// - Parameter names: each name looked up, with its own owner and the mode of the folder that
    ///   holds it.
    package static func refusal(ofNames names: [Step], runningAs user: uid_t, honoursPermissions: (Step) -> Bool = { _ in true },
                                isPrivateGroup: (gid_t) -> Bool = { _ in false }) -> String? {
        for name in names where name.owner != 0 && name.owner != user {
            guard honoursPermissions(name), Self.othersWrite(name.mode, group: name.group, isPrivateGroup) else { continue }
            let who = WorkAreaOwnership.userName(name.owner).map { "user \($0)" } ?? "uid \(name.owner)"
            return "\(name.path) is \(who)'s, in a folder others may write in, so \(who) can replace it (owner uid \(name.owner))"
        }
        return nil
    }

    /// Whether someone other than the owner may write in a folder of `mode` whose group is `group`.
    private static func othersWrite(_ mode: mode_t, group: gid_t, _ isPrivateGroup: (gid_t) -> Bool) -> Bool {
        mode & S_IWOTH != 0 || (mode & S_IWGRP != 0 && !isPrivateGroup(group))
    }

    /// Why another user could change where the path to `directory` leads, or nil: `refusal(of:)`
    /// over the folders on the way as they are now, and `refusal(ofNames:)` over the names looked
    /// up in them. One that cannot be looked at is a refusal.
    package static func refusal(to directory: String) -> String? {
        guard let (steps, names) = walk(to: directory) else { return "the folders on the way to \(directory) cannot be looked at" }
        // Asked once per folder: the names in a folder share its answer.
        var answers: [String: Bool] = [:]
        func honoursPermissions(_ folder: String) -> Bool {
            if let known = answers[folder] { return known }
            let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            let answer = fd < 0 || WorkAreaOwnership.honoursPermissions(fd)
            if fd >= 0 { close(fd) }
            answers[folder] = answer
            return answer
        }
        let user = geteuid()
        let isPrivateGroup = { (group: gid_t) in WorkAreaOwnership.isPrivateGroup(group, of: user) }
        return refusal(of: steps, runningAs: user, honoursPermissions: { honoursPermissions($0.path) }, isPrivateGroup: isPrivateGroup)
            ?? refusal(ofNames: names, runningAs: user, honoursPermissions: { honoursPermissions(($0.path as NSString).deletingLastPathComponent) },
                       isPrivateGroup: isPrivateGroup)
    }

    /// The folders on the way to `directory`, as they are now: every folder a name is looked up
    /// in while the path is resolved, links followed one at a time. That is the folder that holds
    /// each link and every folder its target passes through (the attacker trials planted theirs
    /// in a folder of the path as written, then behind a link of the user's own), each up to the
    /// folder that holds DIR. A relative DIR is read from `$PWD` when that is the working folder,
    /// as the shell wrote it (`cd` into a link, then `--dir .`). Nil when one cannot be looked at
    /// or there are too many links.
    package static func steps(to directory: String) -> [Step]? {
        walk(to: directory)?.folders
    }

    /// `steps(to:)`, and each name looked up on the way with its own owner and the mode of the
    /// folder that holds it (`refusal(ofNames:)`).
    private static func walk(to directory: String) -> (folders: [Step], names: [Step])? {
        var names: [Step] = []
        var folderModes: [String: (mode: mode_t, group: gid_t)] = [:]
        var pending = components(directory.hasPrefix("/") ? directory : workingFolder() + "/" + directory)
        var current: [String] = []
        var met: [String] = []
        var links = 0
        func path(_ components: [String]) -> String { "/" + components.joined(separator: "/") }
        while !pending.isEmpty {
            let name = pending.removeFirst()
            if name == ".." {
                if !current.isEmpty { current.removeLast() }
                continue
            }
            let folder = path(current)
            if !met.contains(folder) { met.append(folder) }
            var info = stat()
            guard lstat(path(current + [name]), &info) == 0 else { return nil }
            if folderModes[folder] == nil {
                var held = stat()
                guard lstat(folder, &held) == 0 else { return nil }
                folderModes[folder] = (held.st_mode, held.st_gid)
            }
            names.append(Step(path: path(current + [name]), owner: info.st_uid, mode: folderModes[folder]?.mode ?? 0,
                              group: folderModes[folder]?.group ?? .max))
            guard (info.st_mode & S_IFMT) == S_IFLNK else {
                current.append(name)
                continue
            }
            links += 1
            guard links <= 40 else { return nil }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path(current + [name]), &buffer, Int(PATH_MAX))
            guard count > 0 else { return nil }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") { current = [] }
            pending = components(target) + pending
        }
        var steps: [Step] = []
        for folder in met {
            var info = stat()
            guard lstat(folder, &info) == 0 else { return nil }
            steps.append(Step(path: folder, owner: info.st_uid, mode: info.st_mode, group: info.st_gid))
        }
        return (steps, names)
    }

    /// The components of `path`, `.` and empty ones left out (`..` kept: it is taken back as the
    /// path resolves, after the links before it).
    package static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    /// The working folder as the shell named it (`$PWD`), when that is where the process is;
    /// else the resolved one.
    private static func workingFolder() -> String {
        let resolved = FileManager.default.currentDirectoryPath
        guard let shell = ProcessInfo.processInfo.environment["PWD"], shell.hasPrefix("/") else { return resolved }
        var named = stat(), actual = stat()
        guard stat(shell, &named) == 0, stat(".", &actual) == 0, named.st_dev == actual.st_dev, named.st_ino == actual.st_ino else {
            return resolved
        }
        return shell
    }
}
