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
    /// by the user. (A file still at its path, under a name the index does not take for it, is
    /// not removed.)
    func asFound(in directory: MediaDirectory) -> StoredItem {
        guard state == .fetched, let path, case .absent = directory.presence(at: path) else { return self }
        return removed(because: Self.removedByUser)
    }
}
