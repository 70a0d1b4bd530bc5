import Foundation
import GRDB
import Testing
@testable import VODAppStore

/// A record reads back as it was written, column by column (`StoredItem+Row`, `StoredItem+Upsert`),
/// every field set to something other than its default. On an in-memory database.
@Suite struct StoredItemRowTests {
    /// Dates as the store keeps them: GRDB's text has milliseconds.
    private static let moment = Date(timeIntervalSince1970: 1_790_000_000.125)

    private func everyField(_ key: String, state: StoredItem.State) -> StoredItem {
        var item = StoredItem(key: key, title: "Title of \(key)", url: "https://example.com/\(key).m3u8", state: state,
                              path: "\(key).mp4", bytes: 1_234_567, etag: "\"e-\(key)\"", lastModified: "Wed, 21 Oct 2026 07:28:00 GMT",
                              error: "the server answered HTTP 503", attempts: 3, nextAttemptAt: Self.moment.addingTimeInterval(60),
                              final: true, total: 9_876_543, fileID: "2049:1234", fingerprint: String(repeating: "ab", count: 32),
                              vouched: false, variantCeiling: 720, variantCeilingLimit: 20 << 20, updatedAt: Self.moment)
        item.subtitles = "en:\(key).en.vtt"
        item.subtitle = "A subtitle"
        item.unendedStarts = 2
        item.removedByVodapp = true
        item.namedAt = Self.moment.addingTimeInterval(-60)
        return item
    }

    @Test(arguments: StoredItem.State.allCases)
    func everyFieldReadsBackAsWritten(_ state: StoredItem.State) throws {
        // Written as every save writes it, without `save`'s scheduling of the next attempt.
        let queue = try DatabaseQueue()
        let store = try StateStore(writer: queue)
        let written = everyField("k-\(state.rawValue)", state: state)
        try queue.write { db in try written.upsert(db) }
        #expect(try store.items([written.key])[written.key] == written)
        #expect(try store.allItems() == [written])
    }

    @Test func theDefaultsOfANewRecordReadBackToo() throws {
        let store = try StateStore(writer: DatabaseQueue())
        let written = StoredItem(key: "plain", title: nil, url: "https://example.com/plain.mp4", state: .fetched, attempts: 0,
                                 updatedAt: Self.moment)
        try store.save([written])
        #expect(try store.items(["plain"])["plain"] == written)
    }

    /// A record edited by hand is an error that says so in one line, never a guess or a crash.
    @Test(arguments: ["state = 'teleported'", "updatedAt = 'garbage'", "namedAt = 'yesterday'"])
    func aRecordEditedByHandIsAnErrorNotAGuess(_ change: String) throws {
        let queue = try DatabaseQueue()
        let store = try StateStore(writer: queue)
        try queue.write { db in try everyField("odd", state: .fetched).upsert(db) }
        try queue.write { db in try db.execute(sql: "UPDATE item SET \(change) WHERE key = 'odd'") }
        let error = try #require(throws: (any Error).self) { try store.items(["odd"]) }
        #expect(StateStoreError.oneLine(error).hasPrefix("it holds a record vodapp cannot read"), "\(change): \(error)")
    }

    /// The records of the keys asked for, and only those: keys without a record, a key asked
    /// twice, characters JSON escapes, none at all, and more keys than SQLite binds variables.
    @Test func theRecordsOfTheKeysAskedForAndNoOthers() throws {
        let store = try StateStore(writer: DatabaseQueue())
        let odd = #"quote" back\slash ünï"#
        let keys = (0..<40_000).map { "k\($0)" } + [odd]
        try store.save(keys.enumerated().filter { $0.offset % 2 == 0 || $0.element == odd }.map { _, key in
            StoredItem(key: key, title: nil, url: "https://example.com/\(key.count).mp4", state: .fetched, attempts: 0, updatedAt: Self.moment)
        })
        #expect(try store.items([]).isEmpty)
        #expect(try store.items(["k1", "absent"]).isEmpty)
        #expect(try Set(store.items(["k0", "k0", "k2", "k3", odd]).keys) == ["k0", "k2", odd])
        let all = try store.items(keys)
        #expect(all.count == 20_001)
        #expect(all.keys.allSatisfy { $0 == odd || Int($0.dropFirst())! % 2 == 0 })
    }
}
