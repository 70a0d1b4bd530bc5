import Foundation
import VODAppBase
import VODAppMediaDirectory
import VODAppStore

/// How a record comes to say its file was removed: one rule for the plan, retention and status.
extension StoredItem {
    /// What the store says of a file that went from DIR without vodapp.
    package static let removedByUser = "removed from DIR, not by vodapp"

    /// The record marked removed now, for `why`; its path and size stay, to say what was there.
    /// - Parameter byVodapp: vodapp removed it (retention, `--sync`): a push naming it again
    ///   fetches it again.
    package func removed(because why: String, byVodapp: Bool = false) -> StoredItem {
        var record = self
        record.state = .removed
        record.removedByVodapp = byVodapp
        record.error = why
        record.updatedAt = Date()
        return record
    }

    /// The record of an item vodapp gave up holding no file for (its kept partial body removed by
    /// retention, or an item `--sync` no longer wants): nothing is kept, nothing retries it (a
    /// listener would fetch again what was removed to make room), and the next push naming it
    /// fetches it from the start.
    package func discarded(because why: String) -> StoredItem {
        var record = self
        record.state = .removed
        record.removedByVodapp = true
        record.path = nil
        record.bytes = nil
        record.etag = nil
        record.lastModified = nil
        record.total = nil
        record.nextAttemptAt = nil
        record.final = false
        record.error = why
        record.updatedAt = Date()
        return record
    }

    /// The record as DIR stands now: a fetched item whose file is gone from its path was removed
    /// by the user; a removed item whose file is back at its path (the user put it there) is in
    /// DIR again.
    ///
    /// The file is looked for by its name in `directory`, not at the path the record was made
    /// with: DIR may be reached through a symbolic link, or moved or copied with its `.vodapp`,
    /// and its files are still its files. A name that is not one vodapp gives this item's key
    /// (a planted record), or a key that fails the payload's rule, is left as it is, and nothing
    /// is looked for outside DIR.
    package func asFound(in directory: MediaDirectory) -> StoredItem {
        guard let stored = path else { return self }
        let name = (stored as NSString).lastPathComponent
        guard Folder.isComponent(name), !name.hasPrefix("."), MediaFileName.isName(name, of: key) else { return self }
        var record = self
        record.path = directory.path + "/" + name
        switch (state, directory.presence(at: directory.path + "/" + name)) {
        case (.fetched, .absent):
            return record.removed(because: Self.removedByUser)
        case (.removed, .file(let bytes)):
            record.state = .fetched
            record.bytes = bytes
            record.error = nil
            return record
        default:
            return record
        }
    }
}
