import Foundation
import GRDB
import Testing
@testable import VODAppStore

/// The latest push, as the store keeps it for `--sync` and `--playlist latest`: replaced by each
/// push, in order, but never by one nothing vouches for while the latest is vouched for. On an
/// in-memory database: what is tested is the store's rules, not SQLite's files.
@Suite struct LatestPushTests {
    private func items(_ keys: [String], vouched: Bool) -> [PushedItem] {
        keys.enumerated().map { PushedItem(position: $0, key: $1, title: "T \($1)", subtitle: $0 == 0 ? "first" : nil, vouched: vouched) }
    }

    @Test func eachPushTakesThePlaceOfTheLastInItsOrder() throws {
        let store = try StateStore(writer: DatabaseQueue())
        #expect(try store.latestPush().isEmpty)
        #expect(try store.recordStart(push: items(["zz", "aa", "mm"], vouched: false), vouched: false, taking: []))
        #expect(try store.latestPush().map(\.key) == ["zz", "aa", "mm"])
        #expect(try store.latestPush().first?.subtitle == "first")
        #expect(try store.recordStart(push: items(["b"], vouched: true), vouched: true, taking: []))
        #expect(try store.latestPush().map(\.key) == ["b"])
    }

    @Test func anUnauthenticatedPushDoesNotTakeThePlaceOfAnAuthenticatedOne() throws {
        let store = try StateStore(writer: DatabaseQueue())
        try store.recordStart(push: items(["mine", "also-mine"], vouched: true), vouched: true, taking: [])
        #expect(try !store.recordStart(push: items(["theirs"], vouched: false), vouched: false, taking: []))
        #expect(try store.latestPush().map(\.key) == ["mine", "also-mine"])
    }

    @Test func recordsThatHoldNoFileAndNoPushNamedForThirtyDaysAreForgotten() throws {
        let store = try StateStore(writer: DatabaseQueue())
        let now = Date()
        let old = now.addingTimeInterval(-StateStore.forgetAfter - 60)
        func record(_ key: String, _ state: StoredItem.State) -> StoredItem {
            StoredItem(key: key, title: key, url: "https://example.com/\(key).mp4", state: state, attempts: 0, final: true, updatedAt: old)
        }
        try store.save([record("failing", .failed), record("big", .tooLarge), record("gone", .removed), record("later", .deferred),
                        record("here", .fetched), record("cut", .partial), record("named", .failed)])
        try store.recordStart(push: items(["named"], vouched: true), vouched: true, taking: [], now: now)
        #expect(try store.allItems().map(\.key) == ["cut", "here", "named"])
        #expect(try store.items(["named"])["named"]?.namedAt != nil)
    }
}
