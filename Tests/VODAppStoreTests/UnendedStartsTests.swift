import Foundation
import GRDB
import Testing
@testable import VODAppStore

/// A delivery the process does not survive stays counted in the store; one that records how it
/// ended sets the count back. On an in-memory database: the store's rules, not its files.
@Suite struct UnendedStartsTests {
    private func store() throws -> StateStore {
        try StateStore(writer: DatabaseQueue())
    }

    private func partial(_ key: String, bytes: Int64) -> StoredItem {
        StoredItem(key: key, title: "T", url: "https://example.com/\(key).mp4", state: .partial, bytes: bytes, attempts: 0,
                   nextAttemptAt: Date(), updatedAt: Date())
    }

    @Test func startsCountUntilAnEndIsRecorded() throws {
        let store = try store()
        // A new item is recorded as the delivery takes it, before any transfer.
        var started = partial("a", bytes: 0)
        started.state = .failed
        started.unendedStarts = 1
        try store.recordStart(push: [], vouched: true, taking: [started])
        #expect(try store.items(["a"])["a"]?.unendedStarts == 1)
        // The process died; the next delivery takes it, and its checkpoint keeps the count.
        try store.recordStart(push: [], vouched: true, taking: [started])
        try store.checkpoint(partial("a", bytes: 100))
        let checkpointed = try #require(try store.items(["a"])["a"])
        #expect(checkpointed.unendedStarts == 2)
        #expect(checkpointed.state == .partial)
        // A delivery that ends, however it ends, records it: the count is back to 0.
        try store.save([partial("a", bytes: 200)])
        let saved = try #require(try store.items(["a"])["a"])
        #expect(saved.unendedStarts == 0)
        #expect(saved.attempts == 1)
    }
}
