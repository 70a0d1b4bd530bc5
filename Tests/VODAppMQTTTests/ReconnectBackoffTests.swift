import Testing
@testable import VODAppMQTT

struct ReconnectBackoffTests {
    @Test func stepsDoubleUpToTheMaximum() {
        let backoff = ReconnectBackoff.standard
        #expect((0..<8).map { backoff.step(after: $0) } == [1, 2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
        #expect(backoff.step(after: 10_000) == .seconds(60))
    }

    @Test func eachWaitIsInTheUpperHalfOfItsStep() {
        let backoff = ReconnectBackoff.standard
        for attempt in 0..<10 {
            let step = backoff.step(after: attempt)
            for _ in 0..<200 {
                let wait = backoff.delay(after: attempt)
                #expect(wait >= step / 2 && wait <= step)
            }
        }
    }

    /// A fleet that lost its broker at once must not come back at once: a thousand devices'
    /// first waits spread over the whole half-second to second.
    @Test func aFleetsWaitsSpreadOut() {
        let waits = (0..<1000).map { _ in ReconnectBackoff.standard.delay(after: 0).milliseconds }
        let buckets = Dictionary(grouping: waits) { ($0 - 500) / 50 }
        #expect(buckets.keys.count >= 10, "\(buckets.keys.sorted())")
        #expect(buckets.values.allSatisfy { $0.count < 200 })
    }
}
