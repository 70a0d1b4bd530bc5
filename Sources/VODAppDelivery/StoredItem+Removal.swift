import Foundation
import VODAppMediaDirectory
import VODAppStore

/// How a record comes to say its file was removed: one rule for the plan, retention and status.
extension StoredItem {
    /// What the store says of a file that went from DIR without vodapp.
    static let removedByUser = "removed from DIR, not by vodapp"

    /// The record marked removed now, for `why`; its path and size stay, to say what was there.
    func removed(because why: String) -> StoredItem {
        var record = self
        record.state = .removed
        record.error = why
        record.updatedAt = Date()
        return record
    }

    /// The record as DIR stands now: a fetched item whose file is gone from its path was removed
    /// by the user; a removed item whose file is back at its path (the user put it there) is in
    /// DIR again.
    func asFound(in directory: MediaDirectory) -> StoredItem {
        guard let path else { return self }
        switch (state, directory.presence(at: path)) {
        case (.fetched, .absent):
            return removed(because: Self.removedByUser)
        case (.removed, .file(let bytes)):
            var record = self
            record.state = .fetched
            record.bytes = bytes
            record.error = nil
            return record
        default:
            return self
        }
    }
}
