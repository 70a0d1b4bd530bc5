import Foundation
import VODAppHLS
import VODAppMediaDirectory
import VODAppPayload
import VODAppReport
import VODAppStore
import VODAppStreams
import VODAppTransferPolicy

/// What the store keeps of a transfer, and what a resume needs back from it. Here, not in the
/// store, so that the store knows nothing of transfers or reports.
extension StoredItem {
    /// The value for `If-Range`.
    package var validator: String? {
        TransferRequest.Resume.validator(etag: etag, lastModified: lastModified)
    }

    /// What the store should say of a transfer still running once its body has begun: the
    /// bytes kept so far can be resumed, under these validators.
    /// - Parameter vouched: whether this push, or an earlier record of the item, is vouched for.
    init(resumable partial: TransferOutcome.Partial, of item: PlaylistItem, vouched: Bool, known: StoredItem?) {
        self.init(key: item.key, title: item.title, url: item.urlString ?? "", state: .partial, bytes: partial.bytes,
                  etag: partial.etag, lastModified: partial.lastModified, attempts: 0, nextAttemptAt: Date(),
                  total: partial.total, vouched: vouched, variantCeiling: known?.variantCeiling,
                  variantCeilingLimit: known?.variantCeilingLimit, updatedAt: Date())
        subtitle = item.subtitle
    }

    /// The record of a new item a delivery has taken, before any transfer: should the process
    /// die, it is a failure to try again in a minute, with the start counted (`unendedStarts`).
    init(started item: PlaylistItem, vouched: Bool) {
        self.init(key: item.key, title: item.title, url: item.urlString ?? "", state: .failed,
                  error: "a delivery took it and did not record how it ended (the process died, unless it is still running)",
                  attempts: 0, nextAttemptAt: Date(timeIntervalSinceNow: RetryBackoff.firstWait), vouched: vouched, updatedAt: Date())
        subtitle = item.subtitle
        unendedStarts = 1
    }

    /// Where an earlier delivery saw the item's variants pass the size limit, when that holds
    /// under `limit` (`VariantCeiling.applies(under:)`).
    func knownCeiling(under limit: Int64) -> VariantCeiling? {
        guard let variantCeiling, let variantCeilingLimit else { return nil }
        let ceiling = VariantCeiling(bandwidth: variantCeiling, sizeLimit: variantCeilingLimit)
        return ceiling.applies(under: limit) ? ceiling : nil
    }

    /// What the store should say of a transfer that ended: the file, the partial body kept to
    /// resume, or the failure and when another attempt is worth it.
    /// - Parameter vouched: whether this delivery's push is vouched for (`DeliveryOptions`). A
    ///   file it placed is vouched for as the push was; anything else stays vouched for once a
    ///   vouched-for push has named it.
    /// - Parameter item: the payload's item, whose subtitle a retry without a push needs.
    init(outcome: TransferOutcome, report: ItemReport, of item: PlaylistItem, known: StoredItem?, vouched: Bool) {
        self.init(key: report.key, title: report.title, url: report.url ?? "", state: .failed,
                  etag: outcome.etag, lastModified: outcome.lastModified, error: report.error,
                  attempts: 0, vouched: vouched || (report.status != .downloaded && known?.vouched == true), updatedAt: Date())
        subtitle = item.subtitle
        // A stream's choice carries what it knows of its variants' sizes, an earlier delivery's
        // included; an item that offered none this time keeps the earlier record's.
        if let ceiling = report.variant?.ceiling {
            (variantCeiling, variantCeilingLimit) = (ceiling.bandwidth, ceiling.sizeLimit)
        } else if report.variant == nil {
            (variantCeiling, variantCeilingLimit) = (known?.variantCeiling, known?.variantCeilingLimit)
        }
        switch report.status {
        case .downloaded, .alreadyPresent:
            state = .fetched
            path = report.path
            bytes = report.bytes
            error = nil
            // The identity and fingerprint of the file this run placed. A file found already
            // there keeps those vodapp recorded placing it with; one it never recorded placing
            // (a file that appeared at the name, perhaps the user's) gets none, and retention
            // never removes it.
            if report.status == .downloaded {
                // Read from the temporary file before it took its name: a write at the name
                // since is not part of what vodapp placed.
                fileID = report.placed?.fileID
                fingerprint = report.placed?.fingerprint
                placedSubtitles = report.subtitles?.compactMap(\.placed) ?? []
            } else {
                fileID = known?.fileID
                fingerprint = known?.fingerprint
                subtitles = known?.subtitles
            }
        case .tooLarge:
            state = .tooLarge
            // What is known of its size: the declared one, or (a body of no declared length, cut
            // when it passed the limit) more than the limit: `total` stays nil then.
            if case .tooLarge(let declared) = outcome.result {
                total = declared
                bytes = declared ?? outcome.bodyBytesReceived
            }
        case .removed:
            state = .removed
        case .deferred:
            state = .deferred
        case .timedOut, .failed, .invalid:
            if let partial = outcome.partial {
                state = .partial
                bytes = partial.bytes
                total = partial.total ?? known?.total
                // A partial body this run did not touch keeps the validators it was fetched under.
                if partial.etag == nil && partial.lastModified == nil {
                    etag = known?.etag
                    lastModified = known?.lastModified
                } else {
                    etag = partial.etag
                    lastModified = partial.lastModified
                }
                // The bytes stay for a resume, but the failure that stopped them may be for good
                // (a 403 on the resume): status says so, as the report did.
                final = report.final == true
                nextAttemptAt = final ? nil : Date()
            } else {
                state = .failed
                final = report.final == true
                nextAttemptAt = final ? nil : outcome.retryAfterSeconds.map { Date(timeIntervalSinceNow: $0) }
            }
        }
    }
}
