import NIOConcurrencyHelpers

/// `--limit-rate`'s token bucket: body bytes a process may receive, refilled at `rate` a second.
///
/// One bucket per rate per process (`shared(rate:)`), so that a listener's deliveries running at
/// once share the limit as one delivery's transfers do: the link is shared with people, and they
/// do not care how vodapp divides its work.
///
/// A chunk is taken while tokens remain and may overdraw the bucket; the debt is paid before the
/// next chunk, so that over any span the bytes taken are at most the rate times the span plus
/// one chunk per taker.
package final class RateBucket: Sendable {
    /// Bytes per second.
    package let rate: Int64
    private let state: NIOLockedValueBox<(tokens: Double, refilled: ContinuousClock.Instant)>
    /// The clock it refills by: the process's, or a test's.
    private let now: @Sendable () -> ContinuousClock.Instant

    private static let buckets = NIOLockedValueBox<[Int64: RateBucket]>([:])

    /// The process's bucket for `rate`.
    package static func shared(rate: Int64) -> RateBucket {
        let rate = max(1, rate)
        return buckets.withLockedValue { buckets in
            if let bucket = buckets[rate] { return bucket }
            let bucket = RateBucket(rate: rate)
            buckets[rate] = bucket
            return bucket
        }
    }

    /// A bucket of its own, refilled by `now`: `shared(rate:)` is the one a run uses.
    package init(rate: Int64, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.rate = max(1, rate)
        self.now = now
        state = NIOLockedValueBox((tokens: 0, refilled: now()))
    }

    /// How much a bucket left alone may hold: a quarter of a second's worth, so that transfers
    /// that all waited on their servers do not then burst far above the rate.
    private var capacity: Double { Double(rate) / 4 }

    /// Takes `count` bytes if any tokens remain; false when the taker must wait (`untilOpen`).
    package func take(_ count: Int) -> Bool {
        state.withLockedValue { state in
            refill(&state)
            guard state.tokens > 0 else { return false }
            state.tokens -= Double(count)
            return true
        }
    }

    /// How long until a chunk may be taken: zero when it may be now.
    package var untilOpen: Duration {
        state.withLockedValue { state in
            refill(&state)
            guard state.tokens <= 0 else { return .zero }
            return .nanoseconds(Int64((-state.tokens / Double(rate) * 1e9).rounded(.up)) + 1)
        }
    }

    private func refill(_ state: inout (tokens: Double, refilled: ContinuousClock.Instant)) {
        let instant = now()
        let seconds = Double(state.refilled.duration(to: instant).attoseconds) / 1e18
        state.tokens = min(capacity, state.tokens + seconds * Double(rate))
        state.refilled = instant
    }
}
