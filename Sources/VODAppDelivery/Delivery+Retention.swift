import Foundation
import VODAppBase
import VODAppMediaDirectory
import VODAppStore

/// The retention phase: after the transfers, vodapp's older files go until the limits hold.
extension Delivery {
    /// Removes files of earlier deliveries, oldest first, until `--keep-days`, `--max-total` and
    /// `--min-free` hold, and records them as removed. Never removed: the files this delivery
    /// reports; files placed within `recentlyPlaced`, which a delivery still running may have
    /// just placed and reported; and any file the store does not say vodapp placed, as it is.
    /// - Returns: what was removed, for the report.
    func applyRetention(_ plan: DeliveryPlan, keeping reports: [String: ItemReport],
                        until deadline: ContinuousClock.Instant) async -> [RemovedFile] {
        let policy = options.retention
        guard policy.removesFiles, let ledger = plan.ledger, let locks = plan.locks else { return [] }
        // One delivery at a time decides what goes, so that two do not count the same bytes.
        // Not an item key (those have no dot), so no item's lock.
        guard await locks.wait(for: ".retention", until: deadline, stop: nil) else {
            attention.warn("no file was removed for retention: another delivery held it until the budget ran out")
            return []
        }
        defer { locks.release(".retention") }
        let directory = plan.directory
        let placed: [(item: StoredItem, file: MediaDirectory.PlacedFile)] = ledger.items(in: .fetched, until: deadline).compactMap { item in
            guard let path = item.path, let bytes = item.bytes,
                  let file = directory.placedFile(at: path, bytes: bytes, placedAt: item.updatedAt) else { return nil }
            return (item, file)
        }
        let kept = Set(reports.values.compactMap(\.path))
        let recent = Date(timeIntervalSinceNow: -max(options.budget.inSeconds, Self.recentlyPlaced.inSeconds))
        // Placed recently by the store's record, which no touch of the file can move.
        var candidates = placed.filter { !kept.contains($0.file.path) && $0.item.updatedAt < recent }
            .sorted { $0.file.modified < $1.file.modified }
        var chosen: [(item: StoredItem, file: MediaDirectory.PlacedFile, reason: String)] = []
        func removeOldest(_ reason: String) -> Int64? {
            guard !candidates.isEmpty else { return nil }
            let oldest = candidates.removeFirst()
            chosen.append((oldest.item, oldest.file, reason))
            return oldest.file.bytes
        }

        if let days = policy.keepDays {
            let cutoff = Date(timeIntervalSinceNow: -Double(days) * 86_400)
            while let oldest = candidates.first, oldest.file.modified < cutoff,
                  removeOldest("older than \(days) day\(days == 1 ? "" : "s") (--keep-days \(days))") != nil {}
        }
        if let limit = policy.maximumTotal {
            var total = placed.reduce(Int64(0)) { $0 + $1.file.bytes } - chosen.reduce(Int64(0)) { $0 + $1.file.bytes }
            while total > limit, let bytes = removeOldest("to keep vodapp's files within \(ByteSize.format(limit)) (--max-total)") {
                total -= bytes
            }
            if total > limit {
                attention.warn("vodapp's files in \(directory.path) take \(ByteSize.format(total)), over --max-total \(ByteSize.format(limit)): "
                               + "the files of this delivery, and those placed in the last minutes, are kept")
            }
        }
        if let minimum = policy.minimumFree, var free = directory.freeBytes() {
            while free < minimum, let bytes = removeOldest("to keep \(ByteSize.format(minimum)) free on its file system (--min-free)") {
                free += bytes
            }
            if free < minimum {
                attention.warn("\(directory.path) has \(ByteSize.format(free)) free, under --min-free \(ByteSize.format(minimum)), "
                               + "and no older file of vodapp's is left to remove: the rest is taken by other files")
            }
        }

        var removed: [RemovedFile] = []
        var records: [StoredItem] = []
        for (item, file, reason) in chosen {
            if let failure = directory.remove(file) {
                attention.warn("cannot remove \(file.path) for retention: \(failure)")
                continue
            }
            logger.info("removed for retention", metadata: ["key": "\(item.key)", "bytes": "\(file.bytes)", "reason": "\(reason)"])
            removed.append(RemovedFile(key: item.key, title: item.title, path: file.path, bytes: file.bytes, reason: reason))
            records.append(item.removed(because: "removed by retention: \(reason)"))
        }
        ledger.record(records, until: deadline)
        return removed
    }

    /// How long a placed file is kept whatever the limits, at least: a delivery that placed it
    /// may still be running (for its budget, which may be another process's), and its report
    /// and playlist name it.
    static let recentlyPlaced: Duration = .seconds(300)

    /// The report of an item not fetched again because its file was removed (`record`, marked
    /// so), by an earlier delivery or the user `since` that day, or noticed only now.
    func removedReport(_ target: DeliveryTarget, record: StoredItem, since: Date?) -> ItemReport {
        let when = since.map { " on " + Self.day($0) } ?? ""
        let why = record.error ?? StoredItem.removedByUser
        return target.report(.removed, error: "\(why)\(when); 'vodapp forget \(target.item.key)' or --refetch-removed fetches it again")
    }

    private static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
