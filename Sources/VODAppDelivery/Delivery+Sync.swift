import Foundation
import VODAppBase
import VODAppDeliveryPolicy
import VODAppMediaDirectory
import VODAppReport
import VODAppStore

/// `--sync`, in the removal phase (`applyRemovals`): the latest push is the desired set (`SyncPlan`).
extension Delivery {
    /// Once every item of the latest push is in DIR (or can never be), removes vodapp's files of
    /// the items it does not name, each while it is still the file vodapp placed, and records
    /// them removed by vodapp; items it does not name that hold no file are recorded so too,
    /// their kept bytes discarded. An item another delivery holds is left to it.
    /// - Parameters:
    ///   - records: the store's records, in every state.
    ///   - runningSince: when this delivery, or the oldest running beside it, began: what was
    ///     recorded since is a running delivery's.
    ///   - needsRoom: whether items of the push failed for want of room, which the files the
    ///     push does not name then give at once.
    /// - Returns: what was removed, for the report, and the keys whose records it changed.
    func sync(_ plan: DeliveryPlan, records: [StoredItem], root: Folder, runningSince: Date, needsRoom: Bool,
              until deadline: ContinuousClock.Instant) -> (removed: [RemovedFile], settled: Set<String>) {
        guard let ledger = plan.ledger, let locks = plan.locks,
              let pushed = ledger.latestPush(until: deadline), !pushed.isEmpty else { return ([], []) }
        let directory = plan.directory
        let sync = syncPlan(pushed: pushed, records: records, in: directory, runningSince: runningSince, needsRoom: needsRoom)
        guard sync.pending.isEmpty || !sync.files.isEmpty else {
            logger.info("--sync waits for the push's items", metadata: ["pending": "\(sync.pending.count)"])
            return ([], [])
        }
        let reason = Self.syncReason(pushed: pushed.count, makingRoom: !sync.pending.isEmpty)
        var removed: [RemovedFile] = []
        var changes: [StoredItem] = []
        for item in sync.files + sync.unwanted {
            guard locks.takeUnheld(item.key) else { continue }
            defer { locks.release(item.key) }
            if item.state == .fetched {
                guard let file = placedFile(of: item, in: directory, root: root),
                      let gone = remove(file, of: item, in: directory, root: root, reason: reason, for: "--sync") else { continue }
                removed += gone
                changes.append(item.removed(because: "removed: \(reason)", byVodapp: true))
            } else {
                if let partial = directory.keptPartial(key: item.key) {
                    guard let gone = remove(partial, of: item, in: directory, reason: reason, for: "--sync") else { continue }
                    removed.append(gone)
                }
                changes.append(item.discarded(because: "not fetched: \(reason)"))
            }
        }
        ledger.record(changes, until: deadline)
        return (removed, Set(changes.map(\.key)))
    }

    /// Why `--sync` removes a file, in words: the dry run says the same.
    static func syncReason(pushed: Int, makingRoom: Bool) -> String {
        "the latest push (\(pushed) item\(pushed == 1 ? "" : "s")) does not name it"
            + (makingRoom ? ", and its items need the room" : "") + " (--sync)"
    }

    /// `SyncPlan` of the store's records, the pushed keys' as DIR stands (`StoredItem.asFound`):
    /// what a delivery's --sync and its dry run both decide from.
    func syncPlan(pushed: [PushedItem], records: [StoredItem], in directory: MediaDirectory, runningSince: Date,
                  needsRoom: Bool = false) -> SyncPlan {
        let named = Set(pushed.map(\.key))
        var found: [String: StoredItem] = [:]
        for record in records where named.contains(record.key) { found[record.key] = record.asFound(in: directory) }
        return SyncPlan(pushed: pushed, found: found, others: records.filter { !named.contains($0.key) },
                        runningSince: runningSince, vouched: options.vouched, needsRoom: needsRoom)
    }
}
