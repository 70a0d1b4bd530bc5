/// The wall-clock budget of one run, from the moment the run started to its exit.
///
/// The transfers get the budget less a reserve, so that the notification and the report still fit
/// inside it when a transfer stalls until the very end.
public struct Budget: Sendable, Equatable {
    public let start: ContinuousClock.Instant
    public let duration: Duration

    public init(start: ContinuousClock.Instant = .now, duration: Duration) {
        self.start = start
        self.duration = duration
    }

    /// When the whole run must be over.
    public var end: ContinuousClock.Instant { start + duration }

    /// Kept back from the transfers for the notification and the report: a tenth of the budget,
    /// at most one second.
    public var reserve: Duration { min(.seconds(1), duration / 10) }

    /// When unfinished transfers are cut.
    public var transferDeadline: ContinuousClock.Instant { end - reserve }

    public var elapsed: Duration { start.duration(to: .now) }
}
