import Foundation

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

        package var description: String {
            switch self {
            case .system(let path, let operation, let code):
                "cannot \(operation) \(path): \(String(cString: strerror(code)))"
            case .notRegular(let path, let kind):
                "\(path) is \(kind), not a regular file"
            case .linked(let path, let links):
                "\(path) has \(links) hard links, so writing it could change a file outside the directory"
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
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT ? .absent : .unsafe(.system(path: path, operation: "inspect", errno: errno))
        }
        if let failure = refusal(of: info, at: path) { return .unsafe(failure) }
        return .file(bytes: Int64(info.st_size))
    }

    /// Opens an existing file (or creates one, with `O_CREAT` in `flags`) that must be a regular
    /// file with one link. The descriptor is blocking again once checked.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Failure) -> Int32 {
        let fd = Foundation.open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode)
        guard fd >= 0 else {
            // ELOOP is O_NOFOLLOW meeting a symbolic link; ENXIO a FIFO opened to write with no
            // reader.
            switch errno {
            case ELOOP: throw .notRegular(path: path, kind: "a symbolic link")
            case ENXIO: throw .notRegular(path: path, kind: "a FIFO or socket")
            default: throw .system(path: path, operation: "open", errno: errno)
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .system(path: path, operation: "inspect", errno: code)
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
        // A directory planted at the name goes too, with what is in it (its links, not their
        // targets): the name is vodapp's. What cannot be removed makes the exclusive open fail,
        // which says why.
        if unlink(path) != 0, errno == EISDIR {
            try? FileManager.default.removeItem(atPath: path)
        }
        return try open(path, O_WRONLY | O_CREAT | O_EXCL)
    }

    /// The bytes of a file of vodapp's own, at most `limit` of them.
    package static func contents(of path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = try open(path, O_RDONLY)
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, limit - bytes.count)) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .system(path: path, operation: "read", errno: errno) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// Why a file with this `stat` is not one vodapp may use, or nil.
    private static func refusal(of info: stat, at path: String) -> Failure? {
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return info.st_nlink > 1 ? .linked(path: path, links: Int(info.st_nlink)) : nil
        case S_IFLNK: return .notRegular(path: path, kind: "a symbolic link")
        case S_IFIFO: return .notRegular(path: path, kind: "a FIFO")
        case S_IFSOCK: return .notRegular(path: path, kind: "a socket")
        case S_IFDIR: return .notRegular(path: path, kind: "a directory")
        case S_IFCHR, S_IFBLK: return .notRegular(path: path, kind: "a device")
        default: return .notRegular(path: path, kind: "not a file")
        }
    }
}
