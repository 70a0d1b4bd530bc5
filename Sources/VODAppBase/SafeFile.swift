import CFileShims
import Foundation
import SystemPackage

/// Opening vodapp's own files inside DIR, where anyone who can write DIR can plant something else
/// under the name vodapp expects: a FIFO (an open or a read that blocks past the budget), a
/// device, a symbolic link or a hard link to a file outside DIR (written through, it would change
/// that file).
///
/// Every open here refuses to follow a final symbolic link (`O_NOFOLLOW`), cannot block
/// (`O_NONBLOCK`: a FIFO opens at once, or fails, and is then refused), and is checked on the
/// descriptor itself to be a regular file with one link. The directories above the name are
/// DIR's and the work area's, which `MediaDirectory.workArea()` checks are not links.
package enum SafeFile {
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case system(path: String, operation: String, errno: Int32)
        /// Something other than a regular file, named for a person ("a FIFO").
        case notRegular(path: String, kind: String)
        /// A regular file with other names, possibly outside DIR.
        case linked(path: String, links: Int)
        /// A folder of the work area that is not the running user's own (`WorkAreaOwnership`).
        case foreign(String)

        package var description: String {
            switch self {
            case .system(let path, let operation, let code):
                "cannot \(operation) \(path): \(Errno(rawValue: code).description)"
            case .notRegular(let path, let kind):
                "\(path) is \(kind), not a regular file"
            case .linked(let path, let links):
                "\(path) has \(links) hard links, so writing it could change a file outside the directory"
            case .foreign(let refusal):
                refusal
            }
        }

        /// The errno that stands for it, for callers that answer with one: a link or a FIFO on
        /// the way is ELOOP, as `O_NOFOLLOW` says of a link.
        package var errno: Int32 {
            switch self {
            case .system(_, _, let code): code
            case .notRegular: ELOOP
            case .linked: EMLINK
            case .foreign: EPERM
            }
        }

        /// Too many open files, in this process or the system: not the file's fault.
        package var isDescriptorExhaustion: Bool {
            if case .system(_, _, let code) = self { code == EMFILE || code == ENFILE } else { false }
        }
    }

    /// What is at a name, without following a link.
    package enum Inspection: Equatable {
        case absent
        /// A regular file with one link.
        case file(bytes: Int64)
        case unsafe(Failure)
    }

    package static func inspect(_ path: String) -> Inspection {
        let info: Stat
        do {
            // In a folder a delivery holds, through its descriptor: no walk from the root.
            if let (held, name) = heldHolder(of: path) {
                info = try Stat(FilePath(name), relativeTo: FileDescriptor(rawValue: held.descriptor), flags: .symlinkNoFollow)
            } else {
                info = try Stat(FilePath(path), followTargetSymlink: false)
            }
        } catch {
            return error == .noSuchFileOrDirectory ? .absent : .unsafe(.system(path: path, operation: "inspect", errno: error.rawValue))
        }
        if let failure = refusal(of: info, at: path) { return .unsafe(failure) }
        return .file(bytes: info.size)
    }

    /// Opens an existing file (or creates one, with `O_CREAT` in `flags`) that must be a regular
    /// file with one link. The descriptor is blocking again once checked.
    ///
    /// The name is opened relative to the folder that holds it (`holder(of:)`): in the work area,
    /// a folder on the way swapped for a link while vodapp runs cannot lead the open outside DIR
    /// (the attacker trial appended to a file in a victim's home through a swapped `.vodapp`).
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Failure) -> Int32 {
        let (folder, name) = try holder(of: path)
        return try open(name, in: folder, flags, mode: mode, shownAs: path)
    }

    /// `open(_:_:mode:)` of a name in a folder already held: thousands of an item's segments are
    /// read without walking from DIR to their folder for each.
    package static func open(_ name: String, in folder: Folder, _ flags: Int32, mode: mode_t = 0o644,
                             shownAs path: String) throws(Failure) -> Int32 {
        let fd = openat(folder.descriptor, name, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode)
        guard fd >= 0 else {
            // ELOOP is O_NOFOLLOW meeting a symbolic link; ENXIO a FIFO opened to write with no
            // reader.
            switch errno {
            case ELOOP: throw .notRegular(path: path, kind: "a symbolic link")
            case ENXIO: throw .notRegular(path: path, kind: "a FIFO or socket")
            default: throw .system(path: path, operation: "open", errno: errno)
            }
        }
        let info: Stat
        do {
            info = try FileDescriptor(rawValue: fd).stat()
        } catch {
            close(fd)
            throw .system(path: path, operation: "inspect", errno: error.rawValue)
        }
        if let failure = refusal(of: info, at: path) {
            close(fd)
            throw failure
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Creates `path` afresh for writing, removing whatever had the name first: a file of
    /// vodapp's own work area is never opened with `O_TRUNC`, which would empty the file outside
    /// DIR that a planted hard link names.
    package static func create(_ path: String) throws(Failure) -> Int32 {
        // A directory planted at the name goes too, with the files in it (links, not their
        // targets): the name is vodapp's. One that holds more (folders, a mount) is moved out of
        // the way, hidden beside it, and nothing in it is removed. What can be neither makes
        // the exclusive open fail, which says why. The folder is reached once, for both steps.
        let (folder, name) = try holder(of: path)
        let flags = O_WRONLY | O_CREAT | O_EXCL
        // Nothing at the name, as nearly always: one call, no unlink that finds nothing.
        do {
            return try open(name, in: folder, flags, shownAs: path)
        } catch where error.errno == EEXIST {}
        if folder.removeFile(name) == EISDIR {
            _ = folder.removeFolder(name)
        }
        return try open(name, in: folder, flags, shownAs: path)
    }

    /// The folder that holds `path`, held open, and the name in it. Below DIR's work area (a path
    /// with `/.vodapp/` in it), every folder from `.vodapp` down is opened without following a
    /// link, from DIR's descriptor: a work folder swapped for a link cannot lead outside DIR.
    /// Above it (DIR itself, which may be a link, the user's choice), the path is followed.
    ///
    /// A folder a running delivery holds (`FolderHold`) is used as it was checked, with no walk.
    package static func holder(of path: String) throws(Failure) -> (folder: Folder, name: String) {
        if let held = heldHolder(of: path) { return held }
        let name = (path as NSString).lastPathComponent
        guard let work = path.range(of: "/" + workAreaName + "/", options: .backwards) else {
            let parent = (path as NSString).deletingLastPathComponent
            return (try Folder.open(parent.isEmpty ? "." : parent), name)
        }
        let below = path[work.upperBound...].split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        return (try Folder.openWorkArea(in: String(path[..<work.lowerBound]), below: below), name)
    }

    /// The folder a running delivery holds (`FolderHold`) that `path` names a file in, and the
    /// name; nil when no hold has it.
    private static func heldHolder(of path: String) -> (folder: Folder, name: String)? {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), let held = FolderHold.folder(at: String(path[..<slash]))
        else { return nil }
        let name = String(path[path.utf8.index(after: slash)...])
        return Folder.isComponent(name) ? (held, name) : nil
    }

    /// The name of vodapp's work area in DIR.
    package static let workAreaName = ".vodapp"

    /// Removes the file (or FIFO, or link: the link, never its target) at `path`, a name of
    /// vodapp's own, through the descriptor of the folder that holds it (`holder(of:)`); never a
    /// directory. Returns 0, or the errno: ENOENT when nothing was there, EISDIR for a folder.
    @discardableResult
    package static func remove(_ path: String) -> Int32 {
        guard let (folder, name) = try? holder(of: path) else { return ENOENT }
        return folder.removeFile(name)
    }

    /// Removes the folder at `path` and the files directly in it, and nothing deeper, through
    /// `Folder`: the folder at the name is opened without following a link (a link there is
    /// removed, never its target's files), and what is in it is removed relative to that
    /// descriptor. What vodapp keeps in a folder of its own is files; a folder planted in one, or
    /// a mount at the name (which a recursive removal would empty, being unable to tell a bind
    /// mount of the same device from a folder), is moved aside whole.
    @discardableResult
    package static func removeFolder(_ path: String) -> Folder.FolderRemoval {
        guard let (parent, name) = try? holder(of: path) else { return .kept("cannot open the folder of \(path)") }
        return parent.removeFolder(name)
    }

    /// Moves the folder at `path` out of the way in one rename, to be emptied within a later
    /// deadline (`Folder.discard`): a folder of 20,000 segments takes seconds to remove.
    @discardableResult
    package static func discardFolder(_ path: String) -> Folder.FolderRemoval {
        guard let (parent, name) = try? holder(of: path) else { return .kept("cannot open the folder of \(path)") }
        return parent.discard(name)
    }

    /// Whether something is mounted at `path`, as /proc/self/mountinfo lists mount points (its
    /// fifth field, with spaces and the like written `\040`). A bind mount of a folder of the
    /// same device has the same device number as its parent, so `st_dev` cannot tell.
    package static func isMountPoint(_ path: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        let target = String(cString: resolved)
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5)
            guard fields.count > 4 else { continue }
            if unescapedMountPath(fields[4]) == target { return true }
        }
        return false
    }

    /// A path as mountinfo writes it: `\ooo` octal escapes for space, tab, newline and `\`.
    private static func unescapedMountPath(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        var scalars = Array(field.utf8)[...]
        while let byte = scalars.popFirst() {
            if byte == UInt8(ascii: "\\"), scalars.count >= 3,
               let value = UInt8(String(decoding: scalars.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                scalars = scalars.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Puts `bytes` at `path` in one rename, written and synced first at `temporary` (a name of
    /// vodapp's own beside it), so that a reader never finds half of them and a crash leaves the
    /// old file or the new one. What was at `temporary` goes; it is removed on failure too.
    package static func replace(_ path: String, with bytes: [UInt8], writingFirst temporary: String) throws(Failure) {
        try write(bytes, to: temporary)
        let code = rename(temporary, to: path)
        guard code == 0 else {
            remove(temporary)
            throw .system(path: path, operation: "rename \(temporary) to", errno: code)
        }
    }

    /// Writes `bytes` to `path` in one rename, as `replace` does, but only over what `replaces`
    /// accepts, judged by the bytes that are there at the moment of the swap, not earlier: a
    /// name that was free is taken only while it still is (RENAME_NOREPLACE); one that is taken
    /// is swapped (RENAME_EXCHANGE), and what came out is swapped back unless `replaces` accepts
    /// it. The ninth attacker trial had the user's own playlist, saved between vodapp's look and
    /// its rename, replaced. Where the file system cannot swap (exfat-fuse), a look and a rename.
    /// - Throws: `.foreign` when what is there is not to be replaced; it stays as it was.
    package static func place(_ path: String, with bytes: [UInt8], writingFirst temporary: String,
                              replaces: ([UInt8]?) -> Bool) throws(Failure) {
        try write(bytes, to: temporary)
        var code = renameWithoutReplacing(temporary, to: path)
        if code == 0 { return }
        guard code == EEXIST else {
            remove(temporary)
            throw .system(path: path, operation: "rename \(temporary) to", errno: code)
        }
        code = exchange(temporary, path)
        if [EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP].contains(code) {
            guard replaces(try? contents(of: path, limit: 8 << 20)) else {
                remove(temporary)
                throw .foreign("\(path) is not vodapp's to replace")
            }
            code = rename(temporary, to: path)
            guard code == 0 else {
                remove(temporary)
                throw .system(path: path, operation: "rename \(temporary) to", errno: code)
            }
            return
        }
        guard code == 0 else {
            remove(temporary)
            throw .system(path: path, operation: "exchange \(temporary) with", errno: code)
        }
        // What was at the name is at the temporary name now.
        if replaces(try? contents(of: temporary, limit: 8 << 20)) {
            remove(temporary)
            return
        }
        // Not vodapp's to replace: swapped back, and what is then at the temporary name (this
        // write, unless something changed again meanwhile) goes only if it is what was written.
        _ = exchange(temporary, path)
        if (try? contents(of: temporary, limit: 8 << 20)) == bytes { remove(temporary) }
        throw .foreign("\(path) became a file that is not vodapp's while vodapp wrote it, and stays as it is")
    }

    /// Swaps the names `one` and `other`, each through the folder that holds it (RENAME_EXCHANGE).
    /// Returns 0 or the errno (EINVAL where the file system cannot).
    private static func exchange(_ one: String, _ other: String) -> Int32 {
        betweenHolders(one, other) { source, name, destination, newName in
            vod_renameat_exchange(source.descriptor, name, destination.descriptor, newName) == 0 ? 0 : errno
        }
    }

    /// Writes `bytes` to a new file at `temporary` and makes them durable.
    package static func write(_ bytes: [UInt8], to temporary: String) throws(Failure) {
        let fd = try create(temporary)
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        let failure = written ? (fsync(fd) == 0 ? nil : errno) : errno
        close(fd)
        if let failure {
            remove(temporary)
            throw .system(path: temporary, operation: "write", errno: failure)
        }
    }

    /// Renames `from` to `to`, replacing what `to` names, each through the folder that holds it
    /// (`holder(of:)`). Returns 0 or the errno.
    @discardableResult
    package static func rename(_ from: String, to: String) -> Int32 {
        betweenHolders(from, to) { source, name, destination, newName in
            renameat(source.descriptor, name, destination.descriptor, newName) == 0 ? 0 : errno
        }
    }

    /// Renames `from` to `to` unless `to` is taken (`Folder.rename`), each through the folder
    /// that holds it. Returns 0, EEXIST when `to` is taken, or the errno.
    package static func renameWithoutReplacing(_ from: String, to: String) -> Int32 {
        betweenHolders(from, to) { source, name, destination, newName in source.rename(name, to: destination, as: newName) }
    }

    /// Gives the file at `from` the further name `to` (a hard link: fails with EEXIST where a
    /// file has that name), each through the folder that holds it. Returns 0 or the errno.
    package static func link(_ from: String, to: String) -> Int32 {
        betweenHolders(from, to) { source, name, destination, newName in
            link(name, in: source, to: newName, in: destination)
        }
    }

    /// `link(_:to:)` of names in folders already held.
    package static func link(_ name: String, in source: Folder, to newName: String, in destination: Folder) -> Int32 {
        guard Folder.isComponent(name), Folder.isComponent(newName) else { return EINVAL }
        // No AT_SYMLINK_FOLLOW: a link at `from` is linked itself, never what it names.
        return linkat(source.descriptor, name, destination.descriptor, newName, 0) == 0 ? 0 : errno
    }

    /// `operation` on the names of `from` and `to` in the folders that hold them (`holder(of:)`),
    /// each one component; its errno, or the one that kept a folder from opening.
    private static func betweenHolders(_ from: String, _ to: String,
                                       _ operation: (Folder, String, Folder, String) -> Int32) -> Int32 {
        do {
            let (source, name) = try holder(of: from)
            let (destination, newName) = try holder(of: to)
            guard Folder.isComponent(name), Folder.isComponent(newName) else { return EINVAL }
            return operation(source, name, destination, newName)
        } catch {
            return error.errno
        }
    }

    /// Makes the folder `path` (mode 0755 less the umask) through the folder that holds it.
    /// Returns 0 or the errno (EEXIST when something has the name).
    package static func makeFolder(_ path: String) -> Int32 {
        do {
            let (parent, name) = try holder(of: path)
            guard Folder.isComponent(name) else { return EINVAL }
            return mkdirat(parent.descriptor, name, 0o755) == 0 ? 0 : errno
        } catch {
            return error.errno
        }
    }

    /// Makes the names in the directory at `path` durable (renames into it, creations): an fsync
    /// of the directory itself.
    package static func syncDirectory(_ path: String) {
        // A folder a delivery holds (DIR, while it fetches) is synced through its descriptor:
        // a group of placements is one fsync, not an open of DIR's path and a walk to it too.
        if let held = FolderHold.folder(at: path) { return held.sync() }
        let fd = Foundation.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// The bytes of a file of vodapp's own, at most `limit` of them.
    package static func contents(of path: String, limit: Int) throws(Failure) -> [UInt8] {
        try read(FileDescriptor(rawValue: try open(path, O_RDONLY)), path: path, limit: limit)
    }

    /// `contents(of:limit:)` of a name in a folder already held.
    package static func contents(of name: String, in folder: Folder, limit: Int) throws(Failure) -> [UInt8] {
        let path = folder.path + "/" + name
        return try read(FileDescriptor(rawValue: try open(name, in: folder, O_RDONLY, shownAs: path)), path: path, limit: limit)
    }

    private static func read(_ file: FileDescriptor, path: String, limit: Int) throws(Failure) -> [UInt8] {
        defer { try? file.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < limit {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { buffer in
                    try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(limit - bytes.count)))
                }
            } catch {
                throw .system(path: path, operation: "read", errno: (error as? Errno)?.rawValue ?? EIO)
            }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// Why a file with this `stat` is not one vodapp may use, or nil.
    private static func refusal(of info: Stat, at path: String) -> Failure? {
        switch info.type {
        case .regular:
            return info.linkCount > 1 ? .linked(path: path, links: info.linkCount) : nil
        case .symbolicLink: return .notRegular(path: path, kind: "a symbolic link")
        case .fifo: return .notRegular(path: path, kind: "a FIFO")
        case .socket: return .notRegular(path: path, kind: "a socket")
        case .directory: return .notRegular(path: path, kind: "a directory")
        case .characterSpecial, .blockSpecial: return .notRegular(path: path, kind: "a device")
        default: return .notRegular(path: path, kind: "not a file")
        }
    }
}
