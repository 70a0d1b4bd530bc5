import Foundation
import Testing
@testable import VODAppStore

/// When an unfinished item is worth another attempt, as pure values: failures back off, a partial
/// that grew goes on at once, one that did not backs off, a failure for good never comes back.
@Suite struct RetryBackoffTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func record(_ state: StoredItem.State, bytes: Int64? = nil, final: Bool = false, next: Date? = nil) -> StoredItem {
        StoredItem(key: "k", title: "T", url: "https://example.com/k.mp4", state: state, bytes: bytes, attempts: 0,
                   nextAttemptAt: next, final: final, updatedAt: now)
    }

    @Test func theWaitDoublesFromAMinuteUpToSixHours() {
        #expect((1...12).map { RetryBackoff.wait(afterFailures: $0) }
                == [60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 21600, 21600, 21600])
        #expect(RetryBackoff.wait(afterFailures: 0) == 60)
        #expect(RetryBackoff.wait(afterFailures: .max) == 21600)
    }

    @Test func failuresCountSinceTheLastSuccessAndBackOff() {
        let first = RetryBackoff.scheduled(record(.failed), after: nil, now: now)
        #expect(first.attempts == 1)
        #expect(first.nextAttemptAt == now.addingTimeInterval(60))
        let third = RetryBackoff.scheduled(record(.failed), after: .init(state: .failed, attempts: 2, bytes: nil), now: now)
        #expect(third.attempts == 3)
        #expect(third.nextAttemptAt == now.addingTimeInterval(240))
        // A success in between starts the count again.
        let afterSuccess = RetryBackoff.scheduled(record(.failed), after: .init(state: .fetched, attempts: 7, bytes: 10), now: now)
        #expect(afterSuccess.attempts == 1)
    }

    @Test func theServersRetryAfterIsKept() {
        let asked = now.addingTimeInterval(5)
        let item = RetryBackoff.scheduled(record(.failed, next: asked), after: .init(state: .failed, attempts: 4, bytes: nil), now: now)
        #expect(item.attempts == 5)
        #expect(item.nextAttemptAt == asked)
    }

    @Test func aPartialThatGrewGoesOnAtOnceAsAFirstAttempt() {
        for earlier in [nil, RetryBackoff.Earlier(state: .partial, attempts: 3, bytes: 100), .init(state: .failed, attempts: 5, bytes: 0)] {
            let item = RetryBackoff.scheduled(record(.partial, bytes: 200, next: now), after: earlier, now: now)
            #expect(item.attempts == 1, "\(String(describing: earlier))")
            #expect(item.nextAttemptAt == now, "\(String(describing: earlier))")
        }
    }

    @Test func aPartialThatDidNotGrowBacksOff() {
        let item = RetryBackoff.scheduled(record(.partial, bytes: 100, next: now), after: .init(state: .partial, attempts: 2, bytes: 100), now: now)
        #expect(item.attempts == 3)
        #expect(item.nextAttemptAt == now.addingTimeInterval(240))
        let empty = RetryBackoff.scheduled(record(.partial, bytes: 0, next: now), after: nil, now: now)
        #expect(empty.nextAttemptAt == now.addingTimeInterval(60))
    }

    @Test func aFailureForGoodHasNoNextAttempt() {
        for state in [StoredItem.State.failed, .partial] {
            let item = RetryBackoff.scheduled(record(state, bytes: 500, final: true, next: now), after: nil, now: now)
            #expect(item.nextAttemptAt == nil)
        }
    }

    @Test func otherStatesAreLeftAsTheyAre() {
        for state in [StoredItem.State.fetched, .tooLarge, .removed, .deferred] {
            let item = record(state, bytes: 5)
            #expect(RetryBackoff.scheduled(item, after: .init(state: .failed, attempts: 3, bytes: 1), now: now) == item)
        }
    }
}
