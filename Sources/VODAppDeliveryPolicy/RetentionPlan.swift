import Foundation
import VODAppBase

/// What retention removes: a pure function of what vodapp holds in DIR (placed files and kept
/// partial bodies, with their sizes, times and why some must stay), the limits, the disk's free
/// space and the time. `Delivery.retention` gathers the entries and removes what this chooses;
/// `--dry-run` shows it.
///
/// - Kept partial bodies go first (a push naming their items fetches them again from the
///   start), oldest first; then files, oldest first.
/// - What only pushes anyone could send brought (`vouched` false) goes before the rest; a
///   delivery of such a push removes nothing else (seventh trial, F6).
/// - `--keep-days` removes what is older; `--max-total` the oldest until vodapp's files fit;
///   `--min-free` the oldest until the disk has that much free, counting what the limits
///   before it removed.
/// - A limit that cannot be met is said, with why the files that stay are kept.
package struct RetentionPlan: Equatable {
    /// A file or kept partial body of vodapp's in DIR.
    package struct Entry: Equatable {
        package var bytes: Int64
        /// Its modification time: when vodapp wrote it, unless the user touched it since.
        package var modified: Date
        /// Whether a source that vouches for its pushes named it (`StoredItem.vouched`).
        package var vouched: Bool
        package var partial = false
        /// Why it may not go, if it may not.
        package var kept: Keep?

        package init(bytes: Int64, modified: Date, vouched: Bool, partial: Bool = false, kept: Keep? = nil) {
            self.bytes = bytes
            self.modified = modified
            self.vouched = vouched
            self.partial = partial
            self.kept = kept
        }
    }

    package enum Keep: Equatable {
        /// This delivery's own: its report and playlist name it.
        case thisDelivery
        /// A delivery running beside this one recorded it since it began.
        case running
        /// A partial whose item another delivery holds.
        case busy
    }

    /// A chosen entry, by its index in the entries given, and why it goes.
    package struct Removal: Equatable {
        package let entry: Int
        package let reason: String
    }

    /// What goes, in the order to remove it.
    package let removals: [Removal]
    /// Each limit that still does not hold once they are gone, in words.
    package let warnings: [String]

    /// - Parameters:
    ///   - freeBytes: the free space of DIR's file system now; nil when unknown (then
    ///     `--min-free` removes nothing).
    ///   - vouched: whether the delivery's push is vouched for: one that is not removes only
    ///     what such pushes brought.
    ///   - directory: DIR's path, for the warnings.
    package init(entries: [Entry], policy: RetentionPolicy, freeBytes: Int64?, now: Date, vouched: Bool, directory: String) {
        let eligible = entries.indices.filter { entries[$0].kept == nil }
        let byAge = { (first: Int, second: Int) in entries[first].modified < entries[second].modified }
        let ordered = eligible.filter { entries[$0].partial }.sorted(by: byAge) + eligible.filter { !entries[$0].partial }.sorted(by: byAge)
        var candidates = ordered.filter { vouched || !entries[$0].vouched }
        // What a limit not met is left to, for its warning: each reason only when it applied.
        let files = entries.filter { !$0.partial }
        let keptReasons = Self.keptReasons(thisDelivery: files.count { $0.kept == .thisDelivery },
                                           running: files.count { $0.kept == .running },
                                           vouchedFor: ordered.count { entries[$0].vouched } - candidates.count { entries[$0].vouched })
        // A stable partition: what only unvouched pushes named first, each part in the order above.
        candidates = candidates.filter { !entries[$0].vouched } + candidates.filter { entries[$0].vouched }

        var removals: [Removal] = []
        var warnings: [String] = []
        var freed: Int64 = 0
        func removeOldest(_ reason: String) -> Int64? {
            guard !candidates.isEmpty else { return nil }
            let oldest = candidates.removeFirst()
            removals.append(Removal(entry: oldest, reason: reason))
            freed += entries[oldest].bytes
            return entries[oldest].bytes
        }

        if let days = policy.keepDays {
            let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
            let reason = "older than \(days) day\(days == 1 ? "" : "s") (--keep-days \(days))"
            for index in candidates where entries[index].modified < cutoff {
                removals.append(Removal(entry: index, reason: reason))
                freed += entries[index].bytes
            }
            candidates.removeAll { entries[$0].modified < cutoff }
        }
        if let limit = policy.maximumTotal {
            var total = entries.reduce(Int64(0)) { $0 + $1.bytes } - freed
            while total > limit, let bytes = removeOldest("to keep vodapp's files within \(ByteSize.format(limit)) (--max-total)") {
                total -= bytes
            }
            if total > limit {
                // Shown so that the two never read the same (8.0 MiB over 8.0 MiB).
                let (shownTotal, shownLimit) = ByteSize.format(total, against: limit)
                warnings.append("vodapp's files in \(directory) take \(shownTotal), over --max-total \(shownLimit), "
                                + "and none is left that retention may remove: kept are \(keptReasons)")
            }
        }
        if let minimum = policy.minimumFree, let freeBytes {
            // What the limits above remove is free space too, once it is gone.
            var free = freeBytes + freed
            while free < minimum, let bytes = removeOldest("to keep \(ByteSize.format(minimum)) free on its file system (--min-free)") {
                free += bytes
            }
            if free < minimum {
                let (shownFree, shownMinimum) = ByteSize.format(free, against: minimum)
                warnings.append("\(directory) has \(shownFree) free, under --min-free \(shownMinimum), "
                                + "and no file of vodapp's is left that retention may remove: kept are \(keptReasons); "
                                + "other files take the rest")
            }
        }
        self.removals = removals
        self.warnings = warnings
    }

    /// Why the files a limit could not remove stay, in words, each only when it applied: the
    /// delivery's own, those of deliveries still running, and those a push anyone could send may
    /// not remove.
    package static func keptReasons(thisDelivery: Int, running: Int, vouchedFor: Int) -> String {
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
}
