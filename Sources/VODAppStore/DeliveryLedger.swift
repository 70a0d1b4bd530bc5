import Foundation
import Logging
import NIOConcurrencyHelpers
import VODAppBase

/// A delivery's writes to the state store: what became of each item it fetched, and a line in
/// the delivery log.
///
/// The store is a record, so a store that cannot be opened or written costs a warning, never a
/// delivery: the files and the report do not depend on it. Nor does it cost the budget: every
/// wait for a busy store ends at the deadline it is given. Writes go through one serial queue,
/// so that a checkpoint made while an item was arriving can never land after how it ended.
package struct DeliveryLedger: Sendable {
    private let store: StateStore
    private let logger: Logger
    private let attention: Attention
    private let writes = DispatchQueue(label: "vodapp-ledger")
    /// Failures after the first are logged at debug level: a store busy for the whole budget
    /// would otherwise write a warning per item.
    private let failures = NIOLockedValueBox(0)
    /// Checkpoints not written yet (`checkpoint`).
    private let pendingCheckpoints = NIOLockedValueBox<[StoredItem]>([])

    /// - Parameter attention: told when the store cannot be used, and of the first write that fails.
    package init?(directory: String, logger: Logger, attention: Attention, until deadline: ContinuousClock.Instant? = nil) {
        do {
            store = try StateStore.shared(directory: directory, until: deadline)
        } catch {
            attention.warn("the state store of \(directory) cannot be used, so nothing is recorded: \(StateStoreError.oneLine(error))")
            return nil
        }
        self.logger = logger
        self.attention = attention
    }

    /// The key of the files' fingerprints (`StateStore.fingerprintKey`); nil, with a warning, when
    /// the store cannot give it.
    package func fingerprintKey(until deadline: ContinuousClock.Instant? = nil) -> FingerprintKey? {
        do {
            return try store.fingerprintKey(until: deadline)
        } catch {
            warn("cannot read the state store: \(StateStoreError.oneLine(error))")
            return nil
        }
    }

    package func items(_ keys: [String], until deadline: ContinuousClock.Instant? = nil) -> [String: StoredItem] {
        guard !keys.isEmpty else { return [:] }
        do {
            return try store.items(keys, until: deadline)
        } catch {
            warn("cannot read the state store: \(StateStoreError.oneLine(error))")
            return [:]
        }
    }

    /// The records of every item in one of `states`; none when the store cannot be read.
    package func items(in states: Set<StoredItem.State>, until deadline: ContinuousClock.Instant? = nil) -> [StoredItem] {
        do {
            return try store.items(in: states, until: deadline)
        } catch {
            warn("cannot read the state store: \(StateStoreError.oneLine(error))")
            return []
        }
    }

    /// Records how transfers ended, in one transaction, after every checkpoint already queued.
    package func record(_ items: [StoredItem], until deadline: ContinuousClock.Instant? = nil) {
        guard !items.isEmpty else { return }
        writes.sync {
            do {
                try store.save(items, until: deadline)
            } catch {
                warn("cannot record \(items.count) item(s) in the state store: \(StateStoreError.oneLine(error))")
            }
        }
    }

    /// Records the delivery's start (`StateStore.recordStart`); false when its push is not the
    /// latest, or the store cannot be written.
    package func recordStart(push: [PushedItem], vouched: Bool, taking started: [StoredItem],
                             until deadline: ContinuousClock.Instant? = nil) -> Bool {
        guard !push.isEmpty || !started.isEmpty else { return false }
        return writes.sync {
            do {
                return try store.recordStart(push: push, vouched: vouched, taking: started, until: deadline)
            } catch {
                warn("cannot record the delivery's start in the state store: \(StateStoreError.oneLine(error))")
                return false
            }
        }
    }

    /// The latest push's items in order; nil when the store cannot be read.
    package func latestPush(until deadline: ContinuousClock.Instant? = nil) -> [PushedItem]? {
        do {
            return try store.latestPush(until: deadline)
        } catch {
            warn("cannot read the state store: \(StateStoreError.oneLine(error))")
            return nil
        }
    }

    /// Records, without waiting for it, that an item's transfer can be resumed from its file.
    /// Checkpoints that arrive while the store is busy are written together, in one transaction:
    /// two hundred small items starting at once cost a few writes, not two hundred.
    package func checkpoint(_ item: StoredItem, until deadline: ContinuousClock.Instant) {
        let first = pendingCheckpoints.withLockedValue { pending in
            pending.append(item)
            return pending.count == 1
        }
        // One write is queued for whatever is pending when it runs; a later checkpoint queues
        // the next. Queued behind it, a `record` of the same item still lands after it.
        guard first else { return }
        writes.async { [store, pendingCheckpoints] in
            let items = pendingCheckpoints.withLockedValue { pending in
                defer { pending = [] }
                return pending
            }
            do {
                try store.checkpoint(items, until: deadline)
            } catch {
                warn("cannot record that \(items.map(\.key).joined(separator: ", ")) can be resumed: \(StateStoreError.oneLine(error))")
            }
        }
    }

    private func warn(_ message: String) {
        let count = failures.withLockedValue { count in
            count += 1
            return count
        }
        if count == 1 {
            attention.warn(message)
        } else {
            logger.debug("\(message)")
        }
    }

    package func log(_ entry: DeliveryLogEntry, until deadline: ContinuousClock.Instant? = nil) {
        writes.sync {
            do {
                try store.log(entry, until: deadline)
            } catch {
                warn("cannot log the delivery in the state store: \(StateStoreError.oneLine(error))")
            }
        }
    }
}
