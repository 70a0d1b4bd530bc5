import Foundation
import Testing
@testable import VODAppDeliveryPolicy
import VODAppStore

/// When the store's memory of a too-large item spares a push its request, as pure values.
@Suite struct TooLargeMemoryTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let url = "https://example.com/big.mp4"

    private func record(declared: Int64?, sent: Int64? = nil, state: StoredItem.State = .tooLarge, age: TimeInterval = 60) -> StoredItem {
        StoredItem(key: "big", title: "Big", url: url, state: state, bytes: sent ?? declared, etag: "\"v1\"", attempts: 0,
                   total: declared, updatedAt: now.addingTimeInterval(-age))
    }

    @Test func aDeclaredSizeStandsForADayAtTheSameURLAndLimit() throws {
        let reason = try #require(TooLargeMemory.settles(record(declared: 30_000_000), url: url, limit: 20 << 20, now: now))
        #expect(reason.hasPrefix("larger than the 20971520-byte limit: it declared 30000000 bytes when last asked, at 2027-01-15T07:59:00Z;"), "\(reason)")
        #expect(reason.hasSuffix("not asked again before 2027-01-16T07:59:00Z unless --max-size is above that"), "\(reason)")
        // A day after the answer, it is asked again: the file may have changed.
        #expect(TooLargeMemory.settles(record(declared: 30_000_000, age: TooLargeMemory.recheckAfter), url: url, limit: 20 << 20, now: now) == nil)
        #expect(TooLargeMemory.settles(record(declared: 30_000_000, age: TooLargeMemory.recheckAfter - 1), url: url, limit: 20 << 20, now: now) != nil)
    }

    @Test func anotherURLOrALimitThatTakesItIsAsked() {
        #expect(TooLargeMemory.settles(record(declared: 30_000_000), url: url + "?v=2", limit: 20 << 20, now: now) == nil)
        #expect(TooLargeMemory.settles(record(declared: 30_000_000), url: nil, limit: 20 << 20, now: now) == nil)
        #expect(TooLargeMemory.settles(record(declared: 30_000_000), url: url, limit: 30_000_000, now: now) == nil)
        #expect(TooLargeMemory.settles(record(declared: 30_000_000), url: url, limit: 29_999_999, now: now) != nil)
    }

    @Test func aBodyOfNoDeclaredLengthIsNotAskedAgainUntilTheLimitPassesWhatItSent() {
        let chunked = record(declared: nil, sent: 21_000_000, age: 30 * 24 * 3600)
        let reason = TooLargeMemory.settles(chunked, url: url, limit: 20 << 20, now: now)
        #expect(reason == "larger than the 20971520-byte limit: it sent 21000000 bytes with no declared length when last offered; "
                + "not fetched again unless --max-size is above that")
        #expect(TooLargeMemory.settles(chunked, url: url, limit: 21_000_000, now: now) == nil)
        #expect(TooLargeMemory.settles(record(declared: nil, sent: nil), url: url, limit: 1, now: now) == nil)
    }

    @Test func onlyATooLargeRecordSettlesAnything() {
        for state in [StoredItem.State.fetched, .partial, .failed, .removed, .deferred] {
            #expect(TooLargeMemory.settles(record(declared: 30_000_000, state: state), url: url, limit: 1, now: now) == nil)
        }
        #expect(TooLargeMemory.settles(nil, url: url, limit: 1, now: now) == nil)
    }
}
