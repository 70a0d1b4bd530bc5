import Foundation
import VODAppBase
import VODAppMediaDirectory
import VODAppStore

/// Retention, in the removal phase (`applyRemovals`): vodapp's older files go until the limits hold.
extension Delivery {
    /// What retention may remove: a file an earlier delivery placed, or the partial body (or
    /// HLS segments) an earlier delivery kept for resuming.
    private struct Candidate {
        enum Kind {
            case file(MediaDirectory.PlacedFile)
            case partial(MediaDirectory.KeptPartial)
        }

        let item: StoredItem
        let kind: Kind
        /// The subtitle files placed beside a file, which go with it: they count with it.
        let subtitleBytes: Int64

        init(item: StoredItem, kind: Kind, subtitleBytes: Int64 = 0) {
            self.item = item
            self.kind = kind
            self.subtitleBytes = subtitleBytes
        }

        var bytes: Int64 {
            switch kind {
            case .file(let file): file.bytes + subtitleBytes
            case .partial(let partial): partial.bytes
            }
        }

        var path: String {
            switch kind {
            case .file(let file): file.path
            case .partial(let partial): partial.path
            }
        }

        var modified: Date {
            switch kind {
            case .file(let file): file.modified
            case .partial(let partial): partial.modified
            }
        }
    }

    /// Removes what earlier deliveries left, oldest first, until `--keep-days`, `--max-total`
    /// and `--min-free` hold, and records it as removed. Kept partial bodies count and go first
    /// (a push naming their items fetches them again from the start); then files. Never
    /// removed: the files and partials of this delivery's items; what deliveries running beside
    /// it recorded since they began (their locks say which run, and since when: a delivery
    /// that ended is no reason to keep anything); the partial of an item another delivery
    /// holds; and any file the store does not say vodapp placed, as it is.
    ///
    /// What pushes anyone could send brought (`StoredItem.vouched`) goes before anything a
    /// source that vouches for its pushes named; and a delivery of such a push removes nothing
    /// else, so that it cannot make room by removing the user's media (seventh trial, F6).
    /// - Parameters:
    ///   - records: the store's records of fetched and partial items (and maybe others).
    ///   - othersRunningSince: when the oldest delivery running beside this one began, if any.
    /// - Returns: what was removed, for the report.
    func retention(_ plan: DeliveryPlan, records: [StoredItem], root: Folder, keeping reports: [String: ItemReport],
                   othersRunningSince: Date?, until deadline: ContinuousClock.Instant) -> [RemovedFile] {
        let policy = options.retention
        guard let ledger = plan.ledger, let locks = plan.locks else { return [] }
        let directory = plan.directory
        func running(_ item: StoredItem) -> Bool { othersRunningSince.map { item.updatedAt >= $0 } ?? false }
        let files: [Candidate] = records.compactMap { item in
            guard item.state == .fetched, let file = placedFile(of: item, in: directory, root: root) else { return nil }
            // What the subtitles take in DIR, as found (not as a record says), under their names.
            let subtitleBytes = item.placedSubtitles.reduce(Int64(0)) { total, subtitle in
                guard MediaFileName.isSubtitleName(subtitle.name, of: item.key),
                      case .file(let size) = directory.presence(at: directory.path + "/" + subtitle.name) else { return total }
                return total + size
            }
            return Candidate(item: item, kind: .file(file), subtitleBytes: subtitleBytes)
        }
        // A partial is touched only under its item's lock, which no delivery may hold meanwhile.
        var held: [String] = []
        defer { held.forEach(locks.release) }
        // Every kept partial counts, as every placed file does; only those of deliveries that
        // ended may go.
        var partialBytes: Int64 = 0
        let partials: [Candidate] = records.compactMap { item in
            guard item.state == .partial, let partial = directory.keptPartial(key: item.key) else { return nil }
            partialBytes += partial.bytes
            guard reports[item.key] == nil, !running(item), locks.takeUnheld(item.key) else { return nil }
            held.append(item.key)
            return Candidate(item: item, kind: .partial(partial))
        }
        // This delivery's files are named in its report (in the same DIR, so by the same path);
        // a running delivery's, by the store's record, which no touch of the file can move.
        let kept = Set(reports.values.compactMap(\.path))
        let vouched = options.vouched
        let eligible = partials.sorted { $0.modified < $1.modified }
            + files.filter { !kept.contains($0.path) && !running($0.item) }.sorted { $0.modified < $1.modified }
        var candidates = eligible.filter { vouched || !$0.item.vouched }
        // What a limit not met is left to, for its warning: each reason only when it applied.
        let keptFiles = files.filter { kept.contains($0.path) }
        let keptReasons = Self.keptReasons(
            thisDelivery: keptFiles.count,
            running: files.count { !kept.contains($0.path) && running($0.item) },
            vouchedFor: eligible.count(where: \.item.vouched) - candidates.count(where: \.item.vouched))
        // A stable partition: what only unvouched pushes named first, each part in the order above.
        candidates = candidates.filter { !$0.item.vouched } + candidates.filter(\.item.vouched)
        var chosen: [(candidate: Candidate, reason: String)] = []
        func removeOldest(_ reason: String) -> Int64? {
            guard !candidates.isEmpty else { return nil }
            let oldest = candidates.removeFirst()
            chosen.append((oldest, reason))
            return oldest.bytes
        }

        if let days = policy.keepDays {
            let cutoff = Date(timeIntervalSinceNow: -Double(days) * 86_400)
            let reason = "older than \(days) day\(days == 1 ? "" : "s") (--keep-days \(days))"
            chosen += candidates.filter { $0.modified < cutoff }.map { ($0, reason) }
            candidates.removeAll { $0.modified < cutoff }
        }
        if let limit = policy.maximumTotal {
            let all = files.reduce(Int64(0)) { $0 + $1.bytes } + partialBytes
            var total = all - chosen.reduce(Int64(0)) { $0 + $1.candidate.bytes }
            while total > limit, let bytes = removeOldest("to keep vodapp's files within \(ByteSize.format(limit)) (--max-total)") {
                total -= bytes
            }
            if total > limit {
                attention.warn("vodapp's files in \(directory.path) take \(ByteSize.format(total)), over --max-total \(ByteSize.format(limit)), "
                               + "and none is left that retention may remove: kept are \(keptReasons)")
            }
        }
        if let minimum = policy.minimumFree, var free = directory.freeBytes() {
            while free < minimum, let bytes = removeOldest("to keep \(ByteSize.format(minimum)) free on its file system (--min-free)") {
                free += bytes
            }
            if free < minimum {
                let (shownFree, shownMinimum) = ByteSize.format(free, against: minimum)
                attention.warn("\(directory.path) has \(shownFree) free, under --min-free \(shownMinimum), "
                               + "and no file of vodapp's is left that retention may remove: kept are \(keptReasons); "
                               + "other files take the rest")
            }
        }

        var removed: [RemovedFile] = []
        // An item that only unvouched pushes had named is the user's from the moment a vouched-for
        // push names it too.
        var changes: [StoredItem] = vouched ? files.filter { !$0.item.vouched && reports[$0.item.key]?.status == .alreadyPresent }
            .map { var item = $0.item; item.vouched = true; return item } : []
        for (candidate, reason) in chosen {
            let item = candidate.item
            switch candidate.kind {
            case .file(let file):
                guard let gone = remove(file, of: item, in: directory, root: root, reason: reason, for: "retention") else { continue }
                removed += gone
                changes.append(item.removed(because: "removed by retention: \(reason)", byVodapp: true))
            case .partial(let partial):
                guard let gone = remove(partial, of: item, in: directory, reason: reason, for: "retention") else { continue }
                removed.append(gone)
                changes.append(item.discarded(because: "its partial body was removed by retention: \(reason)"))
            }
            logger.info("removed for retention", metadata: ["key": "\(item.key)", "bytes": "\(candidate.bytes)", "reason": "\(reason)"])
        }
        ledger.record(changes, until: deadline)
        return removed
    }

    /// Why the files a limit could not remove stay, in words, each only when it applied: the
    /// delivery's own, those of deliveries still running, and those a push anyone could send may
    /// not remove.
    static func keptReasons(thisDelivery: Int, running: Int, vouchedFor: Int) -> String {
        func files(_ count: Int) -> String { count == 1 ? "1 file" : "\(count) files" }
        var reasons: [String] = []
        if thisDelivery > 0 { reasons.append("\(files(thisDelivery)) of this delivery") }
        if running > 0 { reasons.append("\(files(running)) of deliveries still running") }
        if vouchedFor > 0 {
            reasons.append("\(files(vouchedFor)) that a payload file, a poll or a signed push named, which an unauthenticated "
                           + "push such as this one may not make room by removing")
        }
        guard let last = reasons.popLast() else { return "no file of vodapp's" }
        return reasons.isEmpty ? last : reasons.joined(separator: ", ") + " and " + last
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
