/// When a failed transfer is asked for again: after the server's `Retry-After`, or with
/// exponential backoff and jitter, at most `maximumAttempts` in all, and never past the deadline.
///
/// A pure value: it reads no clock and draws no random number. The engine gives it the instant
/// and the jitter, so tests can feed it simulated ones.
package struct RetryPolicy: Sendable, Equatable {
    /// The most attempts for one request, the first included.
    var maximumAttempts: Int
    /// The wait after the first attempt; it doubles with each attempt after.
    var firstDelay: Duration
    /// Each backoff is scaled by a factor in this range, so that clients cut by one failure do
    /// not come back in step.
    static let jitter: ClosedRange<Double> = 0.75...1.25

    package init(maximumAttempts: Int = 6, firstDelay: Duration = .milliseconds(250)) {
        self.maximumAttempts = maximumAttempts
        self.firstDelay = firstDelay
    }

    /// Why a request is asked for again.
    package enum Cause: Equatable {
        /// It failed; `retryAfterSeconds` is what the server asked for, if it did.
        case failure(retryAfterSeconds: Double?)
        /// The answer was good but short: the rest is asked for at once.
        case shortAnswer
    }

    /// The wait before the attempt after `attempt`, or nil when there is none.
    /// - Parameter jitter: a factor in `Self.jitter`; the engine draws it at random.
    package func delay(after attempt: Int, cause: Cause, jitter: Double) -> Duration? {
        guard attempt < maximumAttempts else { return nil }
        switch cause {
        case .shortAnswer:
            return .zero
        case .failure(let seconds?):
            // `TransferContext` caps Retry-After at a day; the cap here keeps any value from trapping.
            return .milliseconds(Int64(min(max(0, seconds), 1e9) * 1000))
        case .failure(nil):
            // 0.25 s, 0.5 s, 1 s, …
            let factor = min(max(jitter, Self.jitter.lowerBound), Self.jitter.upperBound)
            return firstDelay * (Double(1 << (attempt - 1)) * factor)
        }
    }

    /// When to try again after `attempt` failed at `now`, or nil when the next attempt would
    /// not start before `deadline` or there is none left.
    package func next(after attempt: Int, cause: Cause, jitter: Double, now: ContinuousClock.Instant,
              deadline: ContinuousClock.Instant) -> (at: ContinuousClock.Instant, delay: Duration)? {
        guard let delay = delay(after: attempt, cause: cause, jitter: jitter),
              delay < now.duration(to: deadline) else { return nil }
        return (now + delay, delay)
    }
}
