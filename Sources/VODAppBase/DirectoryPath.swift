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
    /// A folder on the way to DIR, as `lstat` showed it.
    package struct Step: Equatable, Sendable {
        package let path: String
        package let owner: uid_t
        package let mode: mode_t

        package init(path: String, owner: uid_t, mode: mode_t) {
            self.path = path
            self.owner = owner
            self.mode = mode
        }
    }

    /// Why another user could change where `steps` (from `/` to DIR's parent) lead, or nil.
    /// On a file system that keeps no modes (FAT, exFAT: every file shows the mount's), only the
    /// owner is asked of a step (`honoursPermissions` false).
    package static func refusal(of steps: [Step], runningAs user: uid_t, honoursPermissions: (Step) -> Bool = { _ in true }) -> String? {
        for step in steps {
            let trusted = step.owner == 0 || step.owner == user
            let othersWrite = honoursPermissions(step) && step.mode & (S_IWGRP | S_IWOTH) != 0
            let sticky = step.mode & S_ISVTX != 0
            if trusted, !othersWrite || sticky { continue }
            let who = !trusted ? (userName(step.owner).map { "user \($0)" } ?? "uid \(step.owner)")
                : step.mode & S_IWOTH != 0 ? "any user" : "its group"
            return "\(step.path) can be changed by \(who) (owner uid \(step.owner), mode \(String(step.mode & 0o7777, radix: 8)))"
        }
        return nil
    }

    /// Why another user could change where the path to `directory` leads, or nil: `refusal(of:)`
    /// over the folders on the way as they are now. One that cannot be looked at is a refusal.
    package static func refusal(to directory: String) -> String? {
        guard let steps = steps(to: directory) else { return "the folders on the way to \(directory) cannot be looked at" }
        return refusal(of: steps, runningAs: geteuid()) { step in
            let fd = open(step.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { return true }
            defer { close(fd) }
            return WorkAreaOwnership.honoursPermissions(fd)
        }
    }

    /// The folders on the way to `directory`, as they are now: those of the path as given (the
    /// link the attacker trial planted was in one of them) and those of the path its links lead
    /// to, each from `/` to the folder that holds DIR. A link on the way is not itself a step:
    /// the folder that holds it is, and where it leads is the resolved path's. Nil when one
    /// cannot be looked at.
    package static func steps(to directory: String) -> [Step]? {
        let absolute = directory.hasPrefix("/") ? directory : FileManager.default.currentDirectoryPath + "/" + directory
        guard let resolved = realpath(absolute, nil) else { return nil }
        defer { free(resolved) }
        var folders: [String] = []
        for path in [absolute, String(cString: resolved)] {
            for folder in parents(of: path) where !folders.contains(folder) { folders.append(folder) }
        }
        var steps: [Step] = []
        for folder in folders {
            var info = stat()
            guard lstat(folder, &info) == 0 else { return nil }
            if (info.st_mode & S_IFMT) == S_IFLNK { continue }
            steps.append(Step(path: folder, owner: info.st_uid, mode: info.st_mode))
        }
        return steps
    }

    /// `/` and each folder below it on the way to `path`'s last component, read as written
    /// (`.` dropped, `..` taking one back).
    static func parents(of path: String) -> [String] {
        var components: [String] = []
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(String(component))
            }
        }
        var folders = ["/"]
        var folder = ""
        for component in components.dropLast() {
            folder += "/" + component
            folders.append(folder)
        }
        return folders
    }

    private static func userName(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
