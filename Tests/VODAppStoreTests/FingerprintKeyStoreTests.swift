import Foundation
import GRDB
import Testing
import UnitTestSupport
import VODAppBase
@testable import VODAppStore

/// The key of a DIR's fingerprints lives in its store: made with it, the same for every
/// connection and every later run, another in another DIR's store, and made afresh (never
/// reused from elsewhere) when its row is found gone or damaged.
@Suite struct FingerprintKeyStoreTests {
    private func store(in scratch: ScratchDirectory, _ connections: StateStore.ConnectionMode = .single) throws -> StateStore {
        try FileManager.default.createDirectory(atPath: scratch.path + "/.vodapp", withIntermediateDirectories: true)
        return try StateStore(directory: scratch.path, connections: connections)
    }

    @Test func aStoreKeepsOneKeyAcrossConnectionsAndRuns() throws {
        let scratch = try ScratchDirectory()
        let first = try store(in: scratch).fingerprintKey()
        #expect(try store(in: scratch, .pool).fingerprintKey() == first)
        #expect(try store(in: scratch).fingerprintKey() == first)
        // Kept in the database file itself, 16 bytes.
        let kept = try DatabaseQueue(path: scratch.path + "/.vodapp/state.sqlite").read { db in
            try Data.fetchOne(db, sql: "SELECT key FROM fingerprintKey")
        }
        #expect(kept.map { [UInt8]($0) } == first.bytes)
        #expect(try store(in: ScratchDirectory()).fingerprintKey() != first)
    }

    @Test(arguments: ["DELETE FROM fingerprintKey", "UPDATE fingerprintKey SET key = x'0102'"])
    func aKeyFoundGoneOrDamagedIsMadeAfresh(_ damage: String) throws {
        let scratch = try ScratchDirectory()
        let first = try store(in: scratch).fingerprintKey()
        try DatabaseQueue(path: scratch.path + "/.vodapp/state.sqlite").write { db in try db.execute(sql: damage) }
        let second = try store(in: scratch).fingerprintKey()
        #expect(second != first)
        #expect(try store(in: scratch).fingerprintKey() == second)
    }

    /// A store of the version before the key (migrated up to v9) gets one when it is opened.
    @Test func aStoreFromBeforeTheKeyGetsOne() throws {
        let scratch = try ScratchDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path + "/.vodapp", withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: scratch.path + "/.vodapp/state.sqlite")
        try StateStore.migrator.migrate(old, upTo: "v9: retries without a push, the latest push, removals by vodapp")
        #expect(try old.read { db in try db.tableExists("fingerprintKey") } == false)
        try old.close()
        let key = try store(in: scratch).fingerprintKey()
        #expect(key.bytes.count == 16)
    }
}
