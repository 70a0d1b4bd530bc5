import Foundation
import VODAppStore

/// What `--sync` removes after a delivery: a pure function of the latest push, the store's
/// records and when the oldest running delivery began.
///
/// - Nothing is removed while an item of the push may still arrive: not recorded yet, partial,
///   deferred, failing for now, or removed by vodapp and not fetched again yet. An item that can
///   never arrive (too large, a failure for good, removed by the user) does not hold the rest.
/// - Unless items of the push failed for want of room (`needsRoom`): then the files it does not
///   name go at once, as they would once it is complete, so that it can be (on a small disk the
///   old set stayed, and the new one never fitted beside it).
/// - Then vodapp's files of items the push does not name go, and so do the records (and kept
///   bytes) of such items not in DIR, so that nothing retries them. A push naming one again
///   fetches it again (`StoredItem.removedByVodapp`).
/// - Never what was recorded since this delivery, or the oldest delivery running beside it,
///   began: a running delivery placed it, and the push after this one decides.
/// - A push anyone could send removes only what such pushes brought (`StoredItem.vouched`), as
///   retention does.
package struct SyncPlan: Equatable {
    /// The keys of the push that may still arrive, in its order.
    package let pending: [String]
    /// Records of files in DIR that the push does not name, to remove.
    package let files: [StoredItem]
    /// Those files whether or not an item is pending: what goes once the push is complete
    /// (`--dry-run` shows them).
    package let unnamedFiles: [StoredItem]
    /// Records of items the push does not name that hold no file in DIR: partial, failed,
    /// deferred, to be recorded as removed (their kept bytes discarded).
    package let unwanted: [StoredItem]

    /// - Parameters:
    ///   - found: the records of the push's keys, as DIR stands (`StoredItem.asFound`).
    ///   - others: the records of every other key.
    ///   - runningSince: when this delivery, or the oldest running beside it, began.
    ///   - needsRoom: whether items of the push failed for want of room.
    package init(pushed: [PushedItem], found: [String: StoredItem], others: [StoredItem], runningSince: Date, vouched: Bool,
         needsRoom: Bool = false) {
        pending = pushed.map(\.key).filter { key in
            guard let record = found[key] else { return true }
            switch record.state {
            case .fetched, .tooLarge: return false
            case .removed: return record.removedByVodapp
            case .failed: return !record.final
            case .partial, .deferred: return true
            }
        }
        let named = Set(pushed.map(\.key))
        let removable = others.filter { !named.contains($0.key) && $0.updatedAt < runningSince && (vouched || !$0.vouched) }
        unnamedFiles = pushed.isEmpty ? [] : removable.filter { $0.state == .fetched }.sorted { ($0.updatedAt, $0.key) < ($1.updatedAt, $1.key) }
        guard pending.isEmpty, !pushed.isEmpty else {
            (files, unwanted) = (needsRoom ? unnamedFiles : [], [])
            return
        }
        files = unnamedFiles
        unwanted = removable.filter { [.partial, .failed, .deferred].contains($0.state) }.sorted { $0.key < $1.key }
    }
}
