import Foundation
import VODAppPayload
import VODAppStore

extension DeliveryLogEntry {
    /// The delivery log's line for a delivery that ran; `reason` is what stopped it, if anything.
    init(_ report: DeliveryReport, from source: DeliverySource, startedAt: Date, stoppedBecause reason: String?) {
        self.init(startedAt: startedAt, source: source.kind, origin: source.detail,
                  result: reason == nil ? report.result.rawValue : "interrupted",
                  items: report.items.count, downloaded: report.count(.downloaded),
                  failed: report.count(.failed) + report.count(.timedOut), elapsedSeconds: report.elapsedSeconds, note: reason)
    }
}
