import Foundation
import GRDB
import Testing
import UnitTestSupport
@testable import VODAppStore

/// The store is reached through the work area it was opened in, held by its descriptor: a
/// `.vodapp` swapped for another folder while the store is open changes nothing in the store,
/// and the store writes nothing in the other folder. Another user swapped `.vodapp` of a shared
/// DIR back and forth; SQLite, opening by name, created the store in the user's Documents and
/// read a forged one that made retention remove the user's own file (fourth attacker trial).
@Suite struct StoreWorkAreaTests {
    @Test(arguments: [StateStore.ConnectionMode.single, .pool])
    func aWorkAreaSwappedWhileTheStoreIsOpenIsNeitherReadNorWritten(connections: StateStore.ConnectionMode) throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.path
        try FileManager.default.createDirectory(atPath: dir + "/.vodapp", withIntermediateDirectories: true)
        let store = try StateStore(directory: dir, connections: connections)
        try store.save([StoredItem(key: "before", title: "Before", url: "http://media.test/before.mp4", state: .fetched, attempts: 1, updatedAt: Date())])

        // The folder moved away, and another (with a store of its own) put in its place.
        #expect(rename(dir + "/.vodapp", dir + "/.moved") == 0)
        try FileManager.default.createDirectory(atPath: dir + "/.vodapp", withIntermediateDirectories: true)
        let other = try StateStore(directory: dir, connections: connections)
        try other.save([StoredItem(key: "forged", title: "Forged", url: "http://media.test/forged.mp4", state: .fetched, attempts: 1, updatedAt: Date())])

        // Connections SQLite opens from now on (readers come and go) must open the same files.
        (store.pool as? DatabasePool)?.releaseMemory()
        try store.save([StoredItem(key: "after", title: "After", url: "http://media.test/after.mp4", state: .fetched, attempts: 1, updatedAt: Date())])
        #expect(try store.allItems().map(\.key).sorted() == ["after", "before"])
        #expect(try other.allItems().map(\.key) == ["forged"])
        let entries = try FileManager.default.contentsOfDirectory(atPath: dir + "/.vodapp").filter { $0.hasPrefix("state.sqlite") }
        #expect(Set(entries).isSubset(of: ["state.sqlite", "state.sqlite-wal", "state.sqlite-shm"]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/.moved").contains("state.sqlite"))
    }

    /// A command's store is one connection, a listener's a pool; both in WAL mode, so that either
    /// reads what the other wrote and a reader elsewhere is never shut out by a writer.
    @Test func aStoreOfOneConnectionAndAPoolShareOneDatabaseInWALMode() throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.path
        try FileManager.default.createDirectory(atPath: dir + "/.vodapp", withIntermediateDirectories: true)
        let single = try StateStore(directory: dir, connections: .single)
        #expect(single.pool is DatabaseQueue)
        try single.save([StoredItem(key: "one", title: "One", url: "http://media.test/one.mp4", state: .fetched, attempts: 1, updatedAt: Date())])
        let pool = try StateStore(directory: dir, connections: .pool)
        #expect(pool.pool is DatabasePool)
        #expect(try pool.allItems().map(\.key) == ["one"])

        // While the single connection holds a write transaction open, the pool still reads.
        try single.pool.write { db in
            try db.execute(sql: "UPDATE item SET title = 'Changed' WHERE key = 'one'")
            #expect(try pool.allItems().map(\.title) == ["One"])
        }
        #expect(try pool.allItems().map(\.title) == ["Changed"])
        let mode = try DatabaseQueue(path: dir + "/.vodapp/state.sqlite").read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}
