import Foundation
import VODAppDevice
import VODAppPayload
import VODAppStore
import VODAppModel

/// Which unfinished items a listener tries again on its own, without a push, and when it should
/// look again: a pure function of the store's records, the time and the device's conditions.
///
/// - A partial or a failure is due at its `nextAttemptAt` (`RetryBackoff`); one that failed for
///   good never is.
/// - A deferred item is due once the conditions that deferred it clear under the listener's
///   options. While they hold, nothing is due (a delivery would defer it all again), and the
///   conditions are looked at again every `conditionsCheck`.
/// - Too large, removed and fetched items are never retried: only a push changes their fate; nor
///   is an item whose URL carries a password, which the store does not keep, nor one whose
///   deliveries the process did not survive `crashesTolerated` times.
/// - An item a retry took that the store has heard nothing new of since (its delivery settled it
///   without a record: the room of `--min-free`, another process holding it) waits
///   `RetryBackoff.firstWait` from that retry, so that no record, however it reads, makes a loop.
public struct RetrySchedule: Sendable, Equatable {
    /// How often a listener looks at the device's conditions while items wait for them.
    public static let conditionsCheck: TimeInterval = 10
    /// The most items one retry delivery takes; more are due at once only after a long outage,
    /// and go in the next.
    public static let itemsPerDelivery = 500
    /// Deliveries of an item the process may not survive before a listener stops retrying it on
    /// its own (`StoredItem.unendedStarts`); a push still takes it.
    public static let crashesTolerated = 2

    /// The items due now, in the order they became due (oldest first), at most `itemsPerDelivery`.
    public let due: [StoredItem]
    /// When to look again, if anything is waiting; nil when nothing unfinished is left.
    public let nextLook: Date?
    /// Every key the records named, due or not: what a listener's memory of its retries keeps.
    public let unfinished: Set<String>
    /// The due items as at most two deliveries: those vouched for, then the others.
    public let retries: [Retry]

    /// - Parameters:
    ///   - items: the store's unfinished records: partial, failed, deferred (others are never due).
    ///   - busy: keys a delivery is working on now: not due, however late.
    ///   - retried: when this listener last took each key into a retry.
    ///   - conditions: the device's conditions now.
    public init(items: [StoredItem], now: Date, busy: Set<String> = [], retried: [String: Date] = [:],
                conditions: DeviceConditions, deferral: DeferralPolicy) {
        var due: [(at: Date, item: StoredItem, url: MediaURL)] = []
        var nextLook: Date?
        func look(at date: Date) {
            nextLook = min(nextLook ?? date, date)
        }
        let deferring = deferral.reason(under: conditions) != nil
        for item in items where !busy.contains(item.key) {
            guard item.unendedStarts < Self.crashesTolerated else { continue }
            let at: Date
            switch item.state {
            case .partial, .failed:
                guard !item.final, let next = item.nextAttemptAt else { continue }
                at = next
            case .deferred:
                at = item.updatedAt
            case .fetched, .tooLarge, .removed:
                continue
            }
            if deferring {
                look(at: max(at, now.addingTimeInterval(Self.conditionsCheck)))
                continue
            }
            if let last = retried[item.key], item.updatedAt <= last, now < last.addingTimeInterval(RetryBackoff.firstWait) {
                look(at: max(at, last.addingTimeInterval(RetryBackoff.firstWait)))
                continue
            }
            guard at <= now else {
                look(at: at)
                continue
            }
            // Parsed once it is due, and kept for its payload.
            guard let url = try? MediaURL(item.url), !url.hasPassword else { continue }
            due.append((at, item, url))
        }
        due.sort { ($0.at, $0.item.key) < ($1.at, $1.item.key) }
        if due.count > Self.itemsPerDelivery {
            look(at: now)
            due.removeLast(due.count - Self.itemsPerDelivery)
        }
        self.due = due.map(\.item)
        self.nextLook = nextLook
        unfinished = Set(items.map(\.key))
        retries = [true, false].compactMap { vouched in
            let items = due.filter { $0.item.vouched == vouched }.map { entry in
                PlaylistItem(key: entry.item.key, validity: .valid(title: entry.item.title ?? entry.item.key, subtitle: entry.item.subtitle,
                                                                   url: entry.url))
            }
            return items.isEmpty ? nil : Retry(payload: Payload(items: items), vouched: vouched)
        }
    }

    /// One delivery of due items, as a push of them would be.
    public struct Retry: Sendable, Equatable {
        public let payload: Payload
        /// Whether a source that vouches for its pushes named them (`StoredItem.vouched`): their
        /// requests carry the person's credentials, as that push's did.
        public let vouched: Bool
    }

}
