import Testing
import VODAppTransferPolicy

/// The retry policy as a pure value: simulated instants and jitter in, waits out.
@Suite struct RetryPolicyTests {
    let policy = RetryPolicy()
    let start = ContinuousClock.now
    let budget: Duration = .seconds(30)

    private func close(_ a: Duration?, _ b: Duration) -> Bool {
        guard let a else { return false }
        return abs((a - b).inSeconds) < 0.000_001
    }

    @Test func backoffDoublesFromAQuarterSecondForFiveRetries() {
        let waits = (1...6).map { policy.delay(after: $0, cause: .failure(retryAfterSeconds: nil), jitter: 1) }
        for (attempt, seconds) in [0.25, 0.5, 1, 2, 4].enumerated() {
            #expect(close(waits[attempt], .milliseconds(Int64(seconds * 1000))), "attempt \(attempt + 1): \(String(describing: waits[attempt]))")
        }
        // Six attempts in all, the first included.
        #expect(waits[5] == nil)
    }

    @Test func jitterSpreadsAWaitByAQuarterEitherWayAndNoMore() {
        let failure = RetryPolicy.Cause.failure(retryAfterSeconds: nil)
        #expect(close(policy.delay(after: 3, cause: failure, jitter: 0.75), .milliseconds(750)))
        #expect(close(policy.delay(after: 3, cause: failure, jitter: 1.25), .milliseconds(1250)))
        // A jitter from outside the range is held to it.
        #expect(close(policy.delay(after: 3, cause: failure, jitter: 0), .milliseconds(750)))
        #expect(close(policy.delay(after: 3, cause: failure, jitter: 9), .milliseconds(1250)))
    }

    @Test func retryAfterIsWaitedWhateverTheAttempt() {
        #expect(policy.delay(after: 1, cause: .failure(retryAfterSeconds: 3), jitter: 1) == .seconds(3))
        #expect(policy.delay(after: 5, cause: .failure(retryAfterSeconds: 0.5), jitter: 1) == .milliseconds(500))
        #expect(policy.delay(after: 6, cause: .failure(retryAfterSeconds: 0.5), jitter: 1) == nil)
        // A day, as a hostile header's number is capped to, is simply past any budget.
        #expect(policy.next(after: 1, cause: .failure(retryAfterSeconds: 86_400), jitter: 1, now: start, deadline: start + budget) == nil)
    }

    @Test func aShortAnswerIsAskedAgainAtOnce() {
        let next = policy.next(after: 2, cause: .shortAnswer, jitter: 1.25, now: start, deadline: start + budget)
        #expect(next?.at == start && next?.delay == .zero)
    }

    @Test func neverPastTheDeadline() {
        let failure = RetryPolicy.Cause.failure(retryAfterSeconds: nil)
        let now = start + .seconds(9)
        let deadline = start + .seconds(10)
        // Attempt 2 waits 0.5 s: it fits in the second left.
        let fits = policy.next(after: 2, cause: failure, jitter: 1, now: now, deadline: deadline)
        #expect(fits?.at == now + .milliseconds(500))
        // Attempt 3 waits 1 s: it would start at the deadline, so it never does.
        #expect(policy.next(after: 3, cause: failure, jitter: 1, now: now, deadline: deadline) == nil)
        #expect(policy.next(after: 1, cause: .failure(retryAfterSeconds: 2), jitter: 1, now: now, deadline: deadline) == nil)
    }
}
