import Foundation
import Logging
import NIOConcurrencyHelpers

/// A delivery's writes to the state store: what became of each item it fetched, and a line in
/// the delivery log.
///
/// The store is a record, so a store that cannot be opened or written costs a warning, never a
/// delivery: the files and the report do not depend on it. Nor does it cost the budget: every
/// wait for a busy store ends at the deadline it is given. Writes go through one serial queue,
/// so that a checkpoint made while an item was arriving can never land after how it ended.
struct DeliveryLedger: Sendable {
    private let store: StateStore
    private let logger: Logger
    private let writes = DispatchQueue(label: "vodapp-ledger")
    /// Failures after the first are logged at debug level: a store busy for the whole budget
    /// would otherwise write a warning per item.
    private let failures = NIOLockedValueBox(0)

    init?(directory: String, logger: Logger, until deadline: ContinuousClock.Instant? = nil) {
        do {
            store = try StateStore.shared(directory: directory, until: deadline)
        } catch {
            logger.warning("the state store of \(directory) cannot be used, so nothing is recorded: \(error)")
            return nil
        }
        self.logger = logger
    }

    func items(_ keys: [String], until deadline: ContinuousClock.Instant? = nil) -> [String: StoredItem] {
        guard !keys.isEmpty else { return [:] }
        do {
            return try store.items(keys, until: deadline)
        } catch {
            warn("cannot read the state store: \(error)")
            return [:]
        }
    }

    /// Records how transfers ended, in one transaction, after every checkpoint already queued.
    func record(_ items: [StoredItem], until deadline: ContinuousClock.Instant? = nil) {
        writes.sync {
            do {
                try store.save(items, until: deadline)
            } catch {
                warn("cannot record \(items.count) item(s) in the state store: \(error)")
            }
        }
    }

    /// Records, without waiting for it, that an item's transfer can be resumed from its file.
    func checkpoint(_ item: StoredItem, until deadline: ContinuousClock.Instant) {
        writes.async { [store] in
            do {
                try store.checkpoint(item, until: deadline)
            } catch {
                warn("cannot record that \(item.key) can be resumed: \(error)")
            }
        }
    }

    private func warn(_ message: String) {
        let count = failures.withLockedValue { count in
            count += 1
            return count
        }
        if count == 1 {
            logger.warning("\(message)")
        } else {
            logger.debug("\(message)")
        }
    }

    /// What the store should say of a transfer that ended: the file, the partial body kept to
    /// resume, or the failure and when another attempt is worth it.
    static func item(for outcome: TransferOutcome, as report: ItemReport, known: StoredItem?) -> StoredItem {
        var item = StoredItem(key: report.key, title: report.title, url: report.url ?? "", state: .failed,
                              etag: outcome.etag, lastModified: outcome.lastModified, error: report.error,
                              attempts: 0, updatedAt: Date())
        switch report.status {
        case .downloaded, .alreadyPresent:
            item.state = .fetched
            item.path = report.path
            item.bytes = report.bytes
            item.error = nil
        case .tooLarge:
            item.state = .tooLarge
        case .timedOut, .failed, .invalid:
            if let partial = outcome.partial {
                item.state = .partial
                item.bytes = partial.bytes
                item.total = partial.total ?? known?.total
                // A partial body this run did not touch keeps the validators it was fetched under.
                if partial.etag == nil && partial.lastModified == nil {
                    item.etag = known?.etag
                    item.lastModified = known?.lastModified
                } else {
                    item.etag = partial.etag
                    item.lastModified = partial.lastModified
                }
                // The bytes stay for a resume, but the failure that stopped them may be for good
                // (a 403 on the resume): status says so, as the report did.
                item.final = report.final == true
                item.nextAttemptAt = item.final ? nil : Date()
            } else {
                item.state = .failed
                item.final = report.final == true
                item.nextAttemptAt = item.final ? nil : outcome.retryAfterSeconds.map { Date(timeIntervalSinceNow: $0) }
            }
        }
        return item
    }

    func log(_ report: DeliveryReport, from source: DeliverySource, startedAt: Date, stoppedBecause reason: String?,
             until deadline: ContinuousClock.Instant? = nil) {
        let entry = DeliveryLogEntry(
            startedAt: startedAt, source: source.kind, origin: source.detail,
            result: reason == nil ? report.result.rawValue : "interrupted",
            items: report.items.count, downloaded: report.count(.downloaded),
            failed: report.count(.failed) + report.count(.timedOut), elapsedSeconds: report.elapsedSeconds, note: reason)
        log(entry, until: deadline)
    }

    func log(_ entry: DeliveryLogEntry, until deadline: ContinuousClock.Instant? = nil) {
        writes.sync {
            do {
                try store.log(entry, until: deadline)
            } catch {
                warn("cannot log the delivery in the state store: \(error)")
            }
        }
    }
}
