import Foundation
import VODAppBase
import VODAppMediaDirectory
import VODAppStore

/// `--sync`: the latest push is the desired set (`SyncPlan`).
extension Delivery {
    /// Once every item of the latest push is in DIR (or can never be), removes vodapp's files of
    /// the items it does not name, through the same checks as retention (the file must still be
    /// the one vodapp placed, removed through DIR's descriptor), and records them removed by
    /// vodapp; items it does not name that hold no file are recorded so too, their kept bytes
    /// discarded. An item another delivery holds is left to it.
    /// - Parameter startedAt: when this delivery began: what was recorded after it is another's.
    /// - Returns: what was removed, for the report.
    func applySync(_ plan: DeliveryPlan, startedAt: Date, until deadline: ContinuousClock.Instant) async -> [RemovedFile] {
        guard options.sync, let ledger = plan.ledger, let locks = plan.locks else { return [] }
        // One delivery at a time removes, as for retention (the same lock).
        guard await locks.wait(for: ".retention", until: deadline, stop: nil) else {
            attention.warn("nothing was removed for --sync: another delivery held DIR's removals until the budget ran out")
            return []
        }
        defer { locks.release(".retention") }
        let directory = plan.directory
        guard let pushed = ledger.latestPush(until: deadline), !pushed.isEmpty else { return [] }
        let found = ledger.items(pushed.map(\.key), until: deadline).mapValues { $0.asFound(in: directory) }
        let named = Set(pushed.map(\.key))
        let others = [StoredItem.State.fetched, .partial, .failed, .deferred]
            .flatMap { ledger.items(in: $0, until: deadline) }.filter { !named.contains($0.key) }
        let sync = SyncPlan(pushed: pushed, found: found, others: others, startedAt: startedAt, vouched: options.vouched)
        guard sync.pending.isEmpty else {
            logger.info("--sync waits for the push's items", metadata: ["pending": "\(sync.pending.count)"])
            return []
        }
        guard !sync.files.isEmpty || !sync.unwanted.isEmpty else { return [] }
        guard let root = removalRoot(of: directory, for: "--sync") else { return [] }
        let reason = "the latest push (\(pushed.count) item\(pushed.count == 1 ? "" : "s")) does not name it (--sync)"
        var removed: [RemovedFile] = []
        var records: [StoredItem] = []
        for item in sync.files {
            guard locks.takeUnheld(item.key) else { continue }
            defer { locks.release(item.key) }
            // A name vodapp gives this key, still the file it placed: anything else is not vodapp's.
            guard let path = item.path, let bytes = item.bytes, MediaFileName.isName((path as NSString).lastPathComponent, of: item.key),
                  let file = directory.placedFile(named: (path as NSString).lastPathComponent, in: root, bytes: bytes,
                                                  placedAt: item.updatedAt, fileID: item.fileID, fingerprint: item.fingerprint)
            else { continue }
            switch directory.remove(file, in: root) {
            case .removed:
                removed.append(RemovedFile(key: item.key, title: item.title, path: file.path, bytes: file.bytes, reason: reason))
                removed += removeSubtitles(of: item, in: directory, root: root, reason: reason)
                records.append(item.removed(because: "removed: \(reason)", byVodapp: true))
            case .kept(let why):
                attention.warn("kept \(file.path), which --sync would have removed: \(why)")
            case .failed(let failure):
                attention.warn("cannot remove \(file.path) for --sync: \(failure)")
            }
        }
        for item in sync.unwanted {
            guard locks.takeUnheld(item.key) else { continue }
            defer { locks.release(item.key) }
            if let partial = directory.keptPartial(key: item.key) {
                if let failure = directory.remove(partial) {
                    attention.warn("cannot remove the partial body of \(item.key) for --sync: \(failure)")
                    continue
                }
                removed.append(RemovedFile(key: item.key, title: item.title, path: partial.path, bytes: partial.bytes,
                                           reason: "a partial body, \(reason)", partial: true))
            }
            var record = item.removed(because: "not fetched: \(reason)", byVodapp: true)
            record.path = nil
            record.bytes = nil
            records.append(record)
        }
        ledger.record(records, until: deadline)
        return removed
    }
}
