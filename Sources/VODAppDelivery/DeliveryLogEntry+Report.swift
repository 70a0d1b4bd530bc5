import Foundation
import VODAppPayload
import VODAppReport
import VODAppStore

extension DeliveryLogEntry {
    /// The delivery log's line for a delivery that ran; `reason` is what stopped it, if anything.
    init(_ report: DeliveryReport, from source: DeliverySource, startedAt: Date, stoppedBecause reason: String?) {
        // A delivery that only deferred (a metered connection, power saver) fetched nothing and
        // failed nothing, and exits 75: "noData, 0 failed" would hide why; "deferred" says it.
        let deferred = report.count(.deferred)
        let result = reason != nil ? "interrupted" : report.result == .noData && deferred > 0 ? "deferred" : report.result.rawValue
        // The item's error begins "deferred: "; the note already says so.
        let why = report.items.first { $0.status == .deferred }?.error.map { error in
            error.hasPrefix("deferred: ") ? String(error.dropFirst("deferred: ".count)) : error
        }
        let note = reason ?? (deferred > 0 ? "\(deferred) deferred" + (why.map { ": \($0)" } ?? "") : nil)
        self.init(startedAt: startedAt, source: source.kind, origin: source.detail, result: result,
                  items: report.items.count, downloaded: report.count(.downloaded),
                  failed: report.count(.failed) + report.count(.timedOut), elapsedSeconds: report.elapsedSeconds, note: note)
    }
}
