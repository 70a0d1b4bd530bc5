import NIOConcurrencyHelpers
import Testing
import VODAppBase
import VODAppListen

/// The first few warnings of a kind are written, the rest counted, and the count written when the
/// window ends.
struct WarningLimiterTests {
    @Test func aFloodIsAFewLinesAndThenItsCount() async throws {
        let lines = NIOLockedValueBox<[String]>([])
        let attention = Attention { weight, message, _ in
            if weight == .warning { lines.withLockedValue { $0.append(message) } }
        }
        // A window long enough that the flood below lands in one even on a loaded machine (with
        // 0.2 s, a build beside the suite stretched the loop over two windows).
        let limiter = WarningLimiter(attention: attention, perWindow: 3, length: .seconds(3))
        for index in 0..<100 {
            limiter.warn("bad datagrams", "bad \(index)")
            limiter.warn("unsigned posts", "unsigned \(index)")
        }
        #expect(lines.withLockedValue { $0 } == ["bad 0", "unsigned 0", "bad 1", "unsigned 1", "bad 2", "unsigned 2"])
        // The flood stopped: each kind's count is written when its window ends, with no later
        // warning to carry it (the attacker trial saw 200,000 invalid messages leave five lines).
        // At the window's end, or as soon after as a loaded machine runs the timer.
        let deadline = ContinuousClock.now + .seconds(20)
        while lines.withLockedValue({ $0.count }) < 8, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Set(lines.withLockedValue { $0.dropFirst(6) })
                == ["97 more bad datagrams were not logged one by one in the last 3.0 seconds",
                    "97 more unsigned posts were not logged one by one in the last 3.0 seconds"])
        limiter.warn("bad datagrams", "bad again")
        #expect(lines.withLockedValue { $0.last } == "bad again")
        #expect(lines.withLockedValue { $0.count } == 9)
    }
}
