@testable import VODAppListen
import Logging
import NIOConcurrencyHelpers
import Testing
import TestSupport
import VODAppListen

/// The first few warnings of a kind are written, the rest counted, and the count written when the
/// next window begins.
struct WarningLimiterTests {
    @Test func aFloodIsAFewLinesAndThenItsCount() async throws {
        let lines = NIOLockedValueBox<[String]>([])
        let logger = Logger(label: "test") { _ in CapturingLogHandler(into: lines) }
        let limiter = WarningLimiter(perWindow: 3, length: .milliseconds(200))
        for index in 0..<100 {
            limiter.warn("bad datagrams", "bad \(index)", to: logger)
            limiter.warn("unsigned posts", "unsigned \(index)", to: logger)
        }
        #expect(lines.withLockedValue { $0 } == ["bad 0", "unsigned 0", "bad 1", "unsigned 1", "bad 2", "unsigned 2"])
        try await Task.sleep(for: .milliseconds(250))
        limiter.warn("bad datagrams", "bad again", to: logger)
        #expect(lines.withLockedValue { Array($0.suffix(2)) }
                == ["97 more bad datagrams were not logged one by one in the last 0.2 seconds", "bad again"])
    }
}
