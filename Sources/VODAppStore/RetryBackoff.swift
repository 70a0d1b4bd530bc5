import Foundation

/// When an unfinished item is worth another attempt, as the store records it and a listener acts
/// on it (`RetrySchedule`): a pure function of what the attempt left and what was recorded before.
///
/// - A failure waits a minute, doubling with each failure since the last success up to six hours,
///   unless the server said when (`Retry-After`).
/// - A transfer cut short that kept more bytes than the one before is making its way on a slow
///   link: it goes on at once, and counts as its first attempt.
/// - One that kept no more than before (a server that stalls, a resume refused each time) waits as
///   a failure does.
/// - A failure for good (`final`) is never tried again on its own.
public enum RetryBackoff {
    /// The first wait, doubled for each further failure.
    public static let firstWait: Double = 60
    /// The longest wait: a box retries a failing item four times a day at least.
    public static let longestWait: Double = 6 * 3600

    /// What was recorded of the item before this attempt.
    public struct Earlier: Sendable, Equatable {
        public var state: StoredItem.State?
        public var attempts: Int
        public var bytes: Int64?
        /// Deliveries of it under way, or that died (`StoredItem.unendedStarts`).
        public var unendedStarts: Int

        public init(state: StoredItem.State?, attempts: Int, bytes: Int64?, unendedStarts: Int = 0) {
            self.state = state
            self.attempts = attempts
            self.bytes = bytes
            self.unendedStarts = unendedStarts
        }
    }

    /// The wait after `attempts` failures in a row.
    public static func wait(afterFailures attempts: Int) -> Double {
        min(longestWait, firstWait * pow(2, Double(min(max(attempts - 1, 0), 20))))
    }

    /// `item`, about to be saved, with its attempts counted and its next attempt set. Other states
    /// than `failed` and `partial` are returned as they are.
    public static func scheduled(_ item: StoredItem, after earlier: Earlier?, now: Date) -> StoredItem {
        guard item.state == .failed || item.state == .partial else { return item }
        var item = item
        let unfinished = earlier.map { $0.state == .failed || $0.state == .partial } ?? false
        let failuresBefore = unfinished ? earlier?.attempts ?? 0 : 0
        let progressed = item.state == .partial && (item.bytes ?? 0) > (unfinished && earlier?.state == .partial ? earlier?.bytes ?? 0 : 0)
        item.attempts = progressed ? 1 : failuresBefore + 1
        guard !item.final else {
            item.nextAttemptAt = nil
            return item
        }
        if progressed {
            item.nextAttemptAt = now
        } else if item.state == .partial || item.nextAttemptAt == nil {
            // A partial's own time is "now" (set as the body began): without progress it waits.
            item.nextAttemptAt = now.addingTimeInterval(wait(afterFailures: item.attempts))
        }
        return item
    }
}
