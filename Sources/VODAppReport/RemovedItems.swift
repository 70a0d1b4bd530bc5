import Foundation
import VODAppDeliveryPolicy
import VODAppMediaDirectory
import VODAppStore

/// `vodapp forget`: what DIR's store remembers of removed items, so that a push naming them
/// does not fetch them again.
public enum RemovedItems {
    /// What forgetting did.
    public struct Forgotten: Sendable, Equatable {
        /// Keys that were removed and will be fetched by the next push naming them.
        public let forgotten: [String]
        /// Keys the store did not have as removed: nothing to forget.
        public let notRemoved: [String]
    }

    /// Forgets that `keys` were removed from `directory`. A DIR without a store has nothing to
    /// forget; nothing else in DIR is touched.
    public static func forget(_ keys: [String], in directory: String) throws(StatusReport.Unreadable) -> Forgotten {
        // Each key once, in the order given.
        var seen = Set<String>()
        let keys = keys.filter { seen.insert($0).inserted }
        try StatusReport.checkOwnership(of: directory)
        do {
            guard try StateStore.exists(in: directory) else {
                return Forgotten(forgotten: [], notRemoved: keys)
            }
            let store = try StateStore(directory: directory)
            // Removed as DIR stands now, by the rule the plan and status use: a file deleted by
            // hand that no push has noticed yet is removed too.
            let media = MediaDirectory(path: directory)
            let records = try store.items(keys)
            let removed = keys.filter { records[$0]?.asFound(in: media).state == .removed }
            try store.forget(removed)
            return Forgotten(forgotten: removed, notRemoved: keys.filter { !removed.contains($0) })
        } catch {
            throw StatusReport.Unreadable(directory: directory, reason: StateStoreError.oneLine(error))
        }
    }
}
