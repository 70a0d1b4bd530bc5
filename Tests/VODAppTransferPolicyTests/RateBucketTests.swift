import Synchronization
import Testing
import VODAppTransferPolicy

/// `--limit-rate`'s bucket on a simulated clock: what it lets through over a span is the rate
/// times the span plus one chunk, whatever the takers do.
@Suite struct RateBucketTests {
    /// A clock the test moves.
    final class Clock: Sendable {
        let start = ContinuousClock.now
        private let offset = Mutex<Duration>(.zero)
        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
        func advance(_ by: Duration) { offset.withLock { $0 += by } }
    }

    @Test func aChunkWaitsForTokensAndMayOverdrawThemOnce() {
        let clock = Clock()
        let bucket = RateBucket(rate: 1000, now: { clock.now })
        #expect(!bucket.take(100), "an empty bucket lets nothing through")
        #expect(bucket.untilOpen > .zero)
        clock.advance(.milliseconds(100))
        #expect(bucket.take(5000), "100 tokens let a 5,000-byte chunk through, into debt")
        #expect(!bucket.take(1))
        // The debt of 4,900 bytes is paid at 1,000 a second.
        let wait = bucket.untilOpen
        #expect(wait > .milliseconds(4899) && wait <= .milliseconds(4901), "\(wait)")
        clock.advance(wait)
        #expect(bucket.take(1))
    }

    @Test func anIdleBucketHoldsAQuarterSecondAtMost() {
        let clock = Clock()
        let bucket = RateBucket(rate: 4000, now: { clock.now })
        clock.advance(.seconds(60))
        // 1,000 tokens (a quarter of 4,000), not 240,000: the next 1,000 bytes pass, then a wait.
        #expect(bucket.take(1000))
        #expect(!bucket.take(1))
        #expect(bucket.untilOpen > .zero)
    }

    @Test func overASpanTheBytesTakenAreTheRateTimesTheSpanPlusOneChunk() {
        let clock = Clock()
        let bucket = RateBucket(rate: 10_000, now: { clock.now })
        var taken = 0
        for _ in 0..<1000 {
            clock.advance(.milliseconds(10))
            while bucket.take(1500) { taken += 1500 }
        }
        // 10 s at 10,000 bytes a second, and one chunk of overdraft.
        #expect(taken <= 100_000 + 1500, "\(taken)")
        #expect(taken >= 100_000 - 1500, "\(taken)")
    }
}
