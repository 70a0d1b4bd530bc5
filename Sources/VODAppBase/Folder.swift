import CFileShims
import Foundation

/// A folder of vodapp's held open by its descriptor, in which every name is one component looked
/// up relative to that descriptor and never through a symbolic link: the one way vodapp lists,
/// moves and removes what is in DIR and its work area.
///
/// Removing through a path re-resolves the path at each call, so a link planted at any of its
/// folders (a partial's folder, `.vodapp`) would send the removal into the link's target, outside
/// DIR. Here a folder is opened once with `O_DIRECTORY | O_NOFOLLOW`, and what is in it is listed
/// through that descriptor and removed with `unlinkat` relative to it: a link in it is a name to
/// remove, never a way out. Nothing here recurses, and nothing removes a directory that is not
/// empty or that is a mount.
///
/// Its descriptor never changes, and every call on it is one `*at` system call, so one may be
/// shared between threads (`FolderHold`).
package final class Folder: Sendable {
    /// Where the folder was when it was opened, for messages only: nothing is looked up by it.
    package let path: String
    package let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Opens the folder at `path`, following a symbolic link there: DIR itself may be one, the
    /// user's choice. What is below it is opened with `folder(_:)`.
    package static func open(_ path: String) throws(SafeFile.Failure) -> Folder {
        let fd = Foundation.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(path: path, operation: "open", errno: errno) }
        return Folder(path: path, descriptor: fd)
    }

    /// Opens `root`, then each of `components` below it, none through a symbolic link.
    package static func open(_ root: String, below components: [String]) throws(SafeFile.Failure) -> Folder {
        var folder = try open(root)
        for name in components { folder = try folder.folder(name) }
        return folder
    }

    /// Opens DIR (`root`), then its work area and each of `components` below it, none through a
    /// symbolic link and each one the running user's own (`ownFolder`).
    package static func openWorkArea(in root: String, below components: [String] = []) throws(SafeFile.Failure) -> Folder {
        var folder = try open(root).ownFolder(SafeFile.workAreaName)
        for name in components { folder = try folder.ownFolder(name) }
        return folder
    }

    /// The folder `name` in this one, not through a link, and the running user's own, checked
    /// through its descriptor as it is opened (`WorkAreaOwnership`). A check of the work area at
    /// the start of a run is not enough: anyone who may rename in DIR can swap `.vodapp` for a
    /// folder of their own while the run goes on, and the attacker trial had a listener read a
    /// push from such a folder's spool, as signed, and send the user's cookies with it.
    package func ownFolder(_ name: String) throws(SafeFile.Failure) -> Folder {
        let inside = try folder(name)
        guard let info = inside.status() else { throw .system(path: inside.path, operation: "inspect", errno: errno) }
        if let refusal = WorkAreaOwnership.refusal(of: WorkAreaOwnership.Entry(path: inside.path, owner: info.st_uid, mode: info.st_mode),
                                                   runningAs: geteuid(), honoursPermissions: WorkAreaOwnership.honoursPermissions(inside.descriptor)) {
            throw .foreign(refusal)
        }
        return inside
    }

    /// Whether `name` is one component of a path: not empty, no `/`, not `.` or `..`, no NUL, at
    /// most 255 bytes. Only such a name stays in the folder it is looked up in.
    package static func isComponent(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= 255 && name != "." && name != ".."
            && !bytes.contains(UInt8(ascii: "/")) && !bytes.contains(0)
    }

    private func child(_ name: String) -> String {
        path + "/" + name
    }

    /// The folder `name` in this one; a symbolic link there is refused (`ELOOP`), not followed.
    package func folder(_ name: String) throws(SafeFile.Failure) -> Folder {
        guard Self.isComponent(name) else { throw .system(path: child(name), operation: "open", errno: EINVAL) }
        let fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            // With O_DIRECTORY, a link answers ENOTDIR rather than ELOOP.
            let code = errno
            if code == ELOOP || (code == ENOTDIR && status(name).map { ($0.st_mode & S_IFMT) == S_IFLNK } == true) {
                throw .notRegular(path: child(name), kind: "a symbolic link")
            }
            errno = code
            throw .system(path: child(name), operation: "open", errno: errno)
        }
        return Folder(path: child(name), descriptor: fd)
    }

    /// The folder `name`, made when it is absent (mode 0755, less what the umask takes: never
    /// writable by others, which would make it not vodapp's own). Anything
    /// else at the name (a link, a FIFO, a file) is removed first: the name is vodapp's.
    package func makeFolder(_ name: String) throws(SafeFile.Failure) -> Folder {
        if let existing = try? folder(name) { return existing }
        guard Self.isComponent(name) else { throw .system(path: child(name), operation: "create", errno: EINVAL) }
        if let info = status(name), (info.st_mode & S_IFMT) != S_IFDIR { unlinkat(descriptor, name, 0) }
        if mkdirat(descriptor, name, 0o755) != 0, errno != EEXIST {
            throw .system(path: child(name), operation: "create", errno: errno)
        }
        return try folder(name)
    }

    /// What is at `name`, without following a link; nil when nothing is.
    package func status(_ name: String) -> stat? {
        guard Self.isComponent(name) else { return nil }
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// The status of the folder itself, through its descriptor.
    package func status() -> stat? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? info : nil
    }

    /// The names in the folder with their `d_type`, `.` and `..` left out, read through the
    /// descriptor (not the path, which a link could now name elsewhere).
    package func entries() -> [(name: String, type: UInt8)] {
        // fdopendir takes the descriptor it is given; a new one of the same folder keeps ours.
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        guard let stream = fdopendir(fd) else {
            close(fd)
            return []
        }
        defer { closedir(stream) }
        var found: [(name: String, type: UInt8)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { found.append((name, entry.pointee.d_type)) }
        }
        return found
    }

    /// Removes the name `name` when it is not a directory: a file, a FIFO, a link (the link, never
    /// its target). Returns 0, or the errno (ENOENT when nothing was there; EISDIR for a folder).
    @discardableResult
    package func removeFile(_ name: String) -> Int32 {
        guard Self.isComponent(name) else { return EINVAL }
        return unlinkat(descriptor, name, 0) == 0 ? 0 : errno
    }

    /// Removes the files directly in this folder (links, never their targets), and nothing
    /// deeper: what vodapp keeps in a folder of its own is files. Past `deadline`, if given, it
    /// stops (the clock is read every 64 names: an unlink costs about 150 µs on ext4).
    /// - Returns: whether every file not kept is gone.
    @discardableResult
    package func removeFiles(where keep: (String) -> Bool = { _ in false }, until deadline: ContinuousClock.Instant? = nil) -> Bool {
        for (index, entry) in entries().enumerated() where entry.type != UInt8(DT_DIR) && !keep(entry.name) {
            if let deadline, index % 64 == 0, ContinuousClock.now >= deadline { return false }
            unlinkat(descriptor, entry.name, 0)
        }
        return true
    }

    /// Whether this folder is the root of a mount: a bind mount of a folder elsewhere, of the
    /// same device or not, is not vodapp's to empty. statx tells on Linux 5.8 and later; before,
    /// the mount table does.
    package var isMountPoint: Bool {
        switch vod_is_mount_root(descriptor) {
        case 1: return true
        case 0: return false
        default: return SafeFile.isMountPoint("/proc/self/fd/\(descriptor)")
        }
    }

    /// What `removeFolder` did.
    package enum FolderRemoval: Equatable {
        /// Nothing is at the name now (or was not).
        case removed
        /// What was there is not a folder vodapp may empty (a mount, or one holding folders): it
        /// was moved out of the way, to this hidden name beside it, with all it holds.
        case movedAside(String)
        /// It stays where it is, for this reason.
        case kept(String)
    }

    /// Removes the folder `name` in this one and the files directly in it, and nothing deeper. A
    /// link or a file at the name is removed (the link, not its target). A mount there, or a
    /// folder that still holds folders once its files are gone, is moved out of the way under a
    /// hidden name, whole: a planted folder is not vodapp's to empty.
    @discardableResult
    package func removeFolder(_ name: String) -> FolderRemoval {
        guard Self.isComponent(name) else { return .kept("\(child(name)) is not a name in \(path)") }
        let inside: Folder
        do {
            inside = try folder(name)
        } catch {
            // Not a folder (a link to one, a file, a FIFO), or nothing: only the name goes.
            let code = removeFile(name)
            return code == 0 || code == ENOENT ? .removed : .kept("cannot remove \(child(name)): \(String(cString: strerror(code)))")
        }
        if !inside.isMountPoint {
            inside.removeFiles()
            if unlinkat(descriptor, name, AT_REMOVEDIR) == 0 || errno == ENOENT { return .removed }
        }
        let aside = ".in-the-way-\(UInt64.random(in: 0...UInt64.max))"
        guard renameat(descriptor, name, descriptor, aside) == 0 else {
            return .kept("\(child(name)) holds what is not vodapp's, and cannot be moved aside: \(String(cString: strerror(errno)))")
        }
        return .movedAside(child(aside))
    }

    /// Renames `name` here to `newName` in `destination` unless that name is taken: `renameat2`
    /// with RENAME_NOREPLACE, or, where the file system cannot promise that in one call
    /// (exfat-fuse answers EINVAL), a look first and a `renameat`. Returns 0, EEXIST when the new
    /// name is taken, or the errno that stopped it.
    package func rename(_ name: String, to destination: Folder, as newName: String) -> Int32 {
        guard Self.isComponent(name), Self.isComponent(newName) else { return EINVAL }
        if vod_renameat_noreplace(descriptor, name, destination.descriptor, newName) == 0 { return 0 }
        guard [EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP].contains(errno) else { return errno }
        if destination.status(newName) != nil { return EEXIST }
        return renameat(descriptor, name, destination.descriptor, newName) == 0 ? 0 : errno
    }

    /// Opens the regular file `name` to read, not through a link, and hands `body` the descriptor
    /// and its status, so that what is checked and what is read are one file; nil when it cannot
    /// be opened.
    package func examining<T>(_ name: String, _ body: (Int32, stat) -> T) -> T? {
        guard Self.isComponent(name) else { return nil }
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return body(fd, info)
    }

    /// Makes the names in the folder durable (renames into it, creations).
    package func sync() {
        fsync(descriptor)
    }
}
