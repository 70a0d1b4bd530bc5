import Foundation
import VODAppBase
import VODAppDeliveryPolicy
import VODAppMediaDirectory
import VODAppReport
import VODAppStore

/// Retention, in the removal phase (`applyRemovals`): vodapp's older files go until the limits hold.
extension Delivery {
    /// Removes what earlier deliveries left until `--keep-days`, `--max-total` and `--min-free`
    /// hold, as `RetentionPlan` chooses, and records it as removed. Never removed: the files and
    /// partials of this delivery's items; what deliveries running beside it recorded since they
    /// began (their locks say which run, and since when: a delivery that ended is no reason to
    /// keep anything); the partial of an item another delivery holds; and any file the store
    /// does not say vodapp placed, as it is.
    /// - Parameters:
    ///   - records: the store's records of fetched and partial items (and maybe others).
    ///   - othersRunningSince: when the oldest delivery running beside this one began, if any.
    /// - Returns: what was removed, for the report.
    func retention(_ plan: DeliveryPlan, records: [StoredItem], root: Folder, keeping reports: [String: ItemReport],
                   othersRunningSince: Date?, until deadline: ContinuousClock.Instant) -> [RemovedFile] {
        guard let ledger = plan.ledger, let locks = plan.locks else { return [] }
        let directory = plan.directory
        // A partial is touched only under its item's lock, which no delivery may hold meanwhile.
        var held: [String] = []
        defer { held.forEach(locks.release) }
        let candidates = retentionCandidates(records: records, in: directory, root: root, keeping: reports,
                                             othersRunningSince: othersRunningSince) { key in
            guard locks.takeUnheld(key) else { return false }
            held.append(key)
            return true
        }
        let chosen = RetentionPlan(entries: candidates.map(\.entry), policy: options.retention, freeBytes: directory.freeBytes(),
                                   now: Date(), vouched: options.vouched, directory: directory.path)
        for warning in chosen.warnings { attention.warn(warning) }

        var removed: [RemovedFile] = []
        // An item that only unvouched pushes had named is the user's from the moment a vouched-for
        // push names it too.
        var changes: [StoredItem] = options.vouched ? candidates.filter { !$0.item.vouched && reports[$0.item.key]?.status == .alreadyPresent }
            .map { var item = $0.item; item.vouched = true; return item } : []
        for removal in chosen.removals {
            let candidate = candidates[removal.entry]
            let item = candidate.item
            switch candidate.kind {
            case .file(let file):
                guard let gone = remove(file, of: item, in: directory, root: root, reason: removal.reason, for: "retention") else { continue }
                removed += gone
                changes.append(item.removed(because: "removed by retention: \(removal.reason)", byVodapp: true))
            case .partial(let partial):
                guard let gone = remove(partial, of: item, in: directory, reason: removal.reason, for: "retention") else { continue }
                removed.append(gone)
                changes.append(item.discarded(because: "its partial body was removed by retention: \(removal.reason)"))
            }
            logger.info("removed for retention", metadata: ["key": "\(item.key)", "bytes": "\(candidate.entry.bytes)",
                                                            "reason": "\(removal.reason)"])
        }
        ledger.record(changes, until: deadline)
        return removed
    }

    /// What retention weighs: each file vodapp placed that is still as placed, with what its
    /// subtitles take, and each kept partial body, with why it must stay if it must.
    /// - Parameter mayTouchPartial: whether an unkept partial may go: it takes the item's lock
    ///   (a dry run, which removes nothing, asks nobody).
    func retentionCandidates(records: [StoredItem], in directory: MediaDirectory, root: Folder,
                             keeping reports: [String: ItemReport], othersRunningSince: Date?,
                             mayTouchPartial: (String) -> Bool) -> [RetentionCandidate] {
        func running(_ item: StoredItem) -> Bool { othersRunningSince.map { item.updatedAt >= $0 } ?? false }
        // This delivery's files are named in its report (in the same DIR, so by the same path);
        // a running delivery's, by the store's record, which no touch of the file can move.
        let kept = Set(reports.values.compactMap(\.path))
        return records.compactMap { item in
            switch item.state {
            case .fetched:
                guard let file = placedFile(of: item, in: directory, root: root) else { return nil }
                // What the subtitles take in DIR, as found (not as a record says), under their names.
                let subtitleBytes = item.placedSubtitles.reduce(Int64(0)) { total, subtitle in
                    guard MediaFileName.isSubtitleName(subtitle.name, of: item.key),
                          case .file(let size) = directory.presence(at: directory.path + "/" + subtitle.name) else { return total }
                    return total + size
                }
                let keep: RetentionPlan.Keep? = kept.contains(file.path) ? .thisDelivery : running(item) ? .running : nil
                return RetentionCandidate(item: item, kind: .file(file),
                                          entry: .init(bytes: file.bytes + subtitleBytes, modified: file.modified, vouched: item.vouched, kept: keep))
            case .partial:
                guard let partial = directory.keptPartial(key: item.key) else { return nil }
                // Every kept partial counts, as every placed file does; only those of deliveries
                // that ended may go.
                let keep: RetentionPlan.Keep? = reports[item.key] != nil ? .thisDelivery : running(item) ? .running
                    : mayTouchPartial(item.key) ? nil : .busy
                return RetentionCandidate(item: item, kind: .partial(partial),
                                          entry: .init(bytes: partial.diskBytes, modified: partial.modified, vouched: item.vouched,
                                                       partial: true, kept: keep))
            default:
                return nil
            }
        }
    }

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
