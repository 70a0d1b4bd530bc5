import Foundation
import SystemPackage
import VODAppBase
import VODAppMediaDirectory

/// Pushes a broker has handed over and no delivery has finished yet, kept in DIR's work area
/// (`DIR/.vodapp/spool`), one file each.
///
/// libmosquitto acknowledges a QoS 1 message to the broker before it hands the message over, so
/// from then on the broker will not send it again: the listener is the only keeper of that push.
/// A push is written here (synced, then renamed into place) before it is queued, and removed
/// when its delivery has run to its end; a push whose delivery a stop cut, or that a crash or a
/// power cut interrupted, is still here at the next start, and is delivered then.
struct PushSpool: Sendable {
    /// A push in the spool: its file's name, which sorts in arrival order.
    struct Entry: Sendable, Hashable, Comparable {
        let name: String

        static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.name < rhs.name }
    }

    enum Failure: Error, CustomStringConvertible {
        case full(limit: Int)
        case unwritable(String)

        var description: String {
            switch self {
            case .full(let limit): "the spool already holds \(limit) undelivered pushes"
            case .unwritable(let reason): "cannot keep the push in the spool: \(reason)"
            }
        }
    }

    /// More pushes than any queue holds waiting: beyond it, a flood on the topic would fill DIR's
    /// disk, and it is refused instead.
    static let limit = 256

    let path: String

    init(directory: String) {
        path = directory + "/.vodapp/spool"
    }

    /// Creates the spool folder if needed; refuses one that is a link (it could steer pushes to
    /// files outside DIR).
    func prepare() throws(Failure) {
        // DIR's work area itself must not be a link either (planted while the listener runs,
        // it would send the spool outside DIR).
        var area = stat()
        let workArea = (path as NSString).deletingLastPathComponent
        guard lstat(workArea, &area) == 0, (area.st_mode & S_IFMT) == S_IFDIR else {
            throw .unwritable("\(workArea) is not a directory of DIR's own")
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .unwritable("\(path): \(Errno(rawValue: errno).description)")
        }
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .unwritable("\(path) is not a directory")
        }
    }

    /// Writes `payload` durably and returns its entry.
    func keep(_ payload: Data) throws(Failure) -> Entry {
        try prepare()
        guard entries().count < Self.limit else { throw .full(limit: Self.limit) }
        let milliseconds = UInt64(Date().timeIntervalSince1970 * 1000)
        let name = String(format: "%013llu-%016llx.json", milliseconds, UInt64.random(in: 0...UInt64.max))
        do {
            // Synced before it counts as kept: the broker has been told the push arrived.
            try SafeFile.replace("\(path)/\(name)", with: Array(payload), writingFirst: "\(path)/.\(name).tmp")
        } catch {
            throw .unwritable(error.description)
        }
        SafeFile.syncDirectory(path)
        return Entry(name: name)
    }

    /// The pushes kept, oldest first.
    func entries() -> [Entry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        return names.filter { name in
            guard !name.hasPrefix("."), name.hasSuffix(".json") else { return false }
            // Only regular files count (and fill it): a directory planted under a push's name is
            // none.
            var info = stat()
            return lstat("\(path)/\(name)", &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }.map(Entry.init(name:)).sorted()
    }

    /// The push's bytes, or nil when the file is gone or is not vodapp's (a link, a FIFO).
    func payload(of entry: Entry, limit: Int) -> Data? {
        (try? SafeFile.contents(of: "\(path)/\(entry.name)", limit: limit)).map { Data($0) }
    }

    /// Removes the half-written files of a write a crash interrupted (never renamed into place,
    /// so never acknowledged as kept).
    func removeLeftovers() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            unlink("\(path)/\(name)")
        }
    }

    func remove(_ entry: Entry) {
        unlink("\(path)/\(entry.name)")
    }
}
