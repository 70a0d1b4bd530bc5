import Foundation
import VODAppDeliveryPolicy
import VODAppMediaDirectory
import VODAppPayload
import VODAppReport
import VODAppStore

/// `--dry-run`: what a delivery would do, decided by the same rules as `run`, with no request
/// and no write.
extension Delivery {
    /// What `run` would do with `payload` now: which items it would fetch or resume, which are
    /// present, which it would skip and why, and what `--sync` and retention would remove. DIR
    /// and its store are only read, as `vodapp status` reads them: nothing is created, locked or
    /// recorded, and no server is asked.
    /// - Throws: `MediaDirectoryError` where `run` would refuse DIR (a way another user can
    ///   change, a work area that is not the user's), or its store cannot be read.
    public func preview(_ payload: Payload) throws(MediaDirectoryError) -> DeliveryPreview {
        let directory = MediaDirectory(path: options.directory)
        let hasWorkArea = try directory.checkWorkArea()
        if FileManager.default.fileExists(atPath: directory.path) { try Self.checkWay(to: directory) }
        var records: [StoredItem] = []
        do {
            if hasWorkArea, try StateStore.exists(in: directory.path) {
                records = try StateStore(directory: directory.path, readOnly: true).allItems()
            }
        } catch {
            throw .directoryUnusable(path: directory.path, reason: "its state store cannot be read: \(error)")
        }
        let known = Dictionary(records.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

        let index = directory.index()
        let now = Date()
        var items: [DeliveryPreview.Item] = []
        var present: [String: ItemReport] = [:]
        for item in payload.items {
            guard case .valid(_, _, let url) = item.validity else {
                if case .invalid(let reason, let title, _) = item.validity {
                    items.append(.init(key: item.key, title: title, url: item.urlString, action: .invalid, reason: reason))
                }
                continue
            }
            let target = DeliveryTarget(item: item, url: url, temporary: directory.temporaryPath(key: item.key))
            if let found = index.file(for: item.key, urlExtension: url.fileExtension), let report = self.present(target, at: found, in: directory) {
                if report.status == .alreadyPresent { present[item.key] = report }
                items.append(.init(report))
            } else if let (report, _) = settledByRecord(target, record: known[item.key], in: directory, now: now) {
                items.append(.init(report))
            } else if known[item.key]?.state == .partial, let partial = directory.keptPartial(key: item.key) {
                items.append(.init(key: item.key, title: item.title, url: item.urlString, action: .resume, bytes: partial.bytes))
            } else {
                items.append(.init(key: item.key, title: item.title, url: item.urlString, action: .fetch))
            }
        }

        guard hasWorkArea, options.sync || options.retention.removesFiles, let root = try? directory.folder() else {
            return DeliveryPreview(directory: directory.path, items: items, removals: [], syncRemovals: [], syncWaitsFor: [], warnings: [])
        }
        // Deliveries running now keep what they recorded, as they would from a real run.
        let othersSince = ItemLocks.observing(path: directory.lockPath)?.othersRunningSince()
        var remaining = records.filter { [.fetched, .partial].contains($0.state) }
        var syncRemovals: [RemovedFile] = []
        var syncWaitsFor: [String] = []
        if options.sync {
            let pushed = pushed(payload)
            let named = Set(pushed.map(\.key))
            let sync = syncPlan(pushed: pushed, records: records, in: directory, runningSince: min(now, othersSince ?? now))
            syncWaitsFor = sync.pending
            let reason = Self.syncReason(pushed: pushed.count, makingRoom: false)
            syncRemovals = sync.unnamedFiles.compactMap { item in
                placedFile(of: item, in: directory, root: root).map {
                    RemovedFile(key: item.key, title: item.title, path: $0.path, bytes: $0.bytes, reason: reason)
                }
            }
            // When the push is complete, --sync goes first and retention weighs what is left.
            if sync.pending.isEmpty { remaining.removeAll { !named.contains($0.key) } }
        }
        guard options.retention.removesFiles else {
            return DeliveryPreview(directory: directory.path, items: items, removals: [], syncRemovals: syncRemovals,
                                   syncWaitsFor: syncWaitsFor, warnings: [])
        }
        let candidates = retentionCandidates(records: remaining, in: directory, root: root, keeping: present,
                                             othersRunningSince: othersSince) { _ in true }
        let chosen = RetentionPlan(entries: candidates.map(\.entry), policy: options.retention, freeBytes: directory.freeBytes(),
                                   now: now, vouched: options.vouched, directory: directory.path)
        let removals = chosen.removals.map { removal in
            let candidate = candidates[removal.entry]
            switch candidate.kind {
            case .file(let file):
                return RemovedFile(key: candidate.item.key, title: candidate.item.title, path: file.path, bytes: candidate.entry.bytes,
                                   reason: removal.reason)
            case .partial(let partial):
                return RemovedFile(partial, of: candidate.item, reason: removal.reason)
            }
        }
        return DeliveryPreview(directory: directory.path, items: items, removals: removals, syncRemovals: syncRemovals,
                               syncWaitsFor: syncWaitsFor, warnings: chosen.warnings)
    }
}
