import Foundation
import GRDB
import Testing
import UnitTestSupport
@testable import VODAppStore

/// The store's check of what a database holds, on real SQLite files: vodapp's own schema, of
/// any version, passes; anything else is refused by name before a query runs it.
@Suite struct StoreSchemaTests {
    /// A DIR with a work area, and the path its store has.
    private func directory() throws -> (ScratchDirectory, dir: String, store: String) {
        let scratch = try ScratchDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path + "/.vodapp", withIntermediateDirectories: true)
        return (scratch, scratch.path, scratch.path + "/.vodapp/state.sqlite")
    }

    private func refusal(_ dir: String, readOnly: Bool = false) -> [String]? {
        do {
            _ = try StateStore(directory: dir, readOnly: readOnly)
            return nil
        } catch StateStoreError.foreign(_, let objects) {
            return objects
        } catch {
            return ["unexpected: \(error)"]
        }
    }

    /// The digest that lets a current store skip the comparison is the migrations' own: a new
    /// migration must change it, or every current store would be compared object by object (and
    /// still pass), and an old digest would let nothing through that the comparison refuses.
    @Test func theCurrentDigestIsThatOfAStoreEveryMigrationMade() throws {
        let queue = try DatabaseQueue()
        try StateStore.migrator.migrate(queue)
        let digest = try queue.read { db in StoreSchema.digest(of: try StoreSchema.objects(in: db)) }
        #expect(digest == StoreSchema.currentDigest)
        // One migration short, it differs.
        let older = try DatabaseQueue()
        try StateStore.migrator.migrate(older, upTo: "v8: the subtitle files placed beside an item's")
        #expect(try older.read { db in StoreSchema.digest(of: try StoreSchema.objects(in: db)) } != StoreSchema.currentDigest)
    }

    @Test func vodappsOwnSchemaOfEveryVersionPasses() throws {
        for version in ["v1", "v2: final failures", "v4: the placed file's identity"] {
            let (scratch, dir, store) = try directory()
            let queue = try DatabaseQueue(path: store)
            try StateStore.migrator.migrate(queue, upTo: version)
            try queue.close()
            #expect(refusal(dir, readOnly: true) == nil, "\(version)")
            #expect(refusal(dir) == nil, "\(version), migrated")
            #expect(refusal(dir) == nil, "\(version), after migration")
            _ = scratch
        }
    }

    @Test(arguments: [
        ("CREATE VIEW spin AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r", ["view 'spin'"]),
        ("CREATE TRIGGER spy AFTER INSERT ON delivery BEGIN DELETE FROM item; END", ["trigger 'spy'"]),
        ("CREATE INDEX byTitle ON item(title)", ["index 'byTitle'"]),
        ("CREATE TABLE notes (text)", ["table 'notes'"]),
        ("ALTER TABLE item ADD COLUMN heavy TEXT GENERATED ALWAYS AS (printf('%.*c', 100000000, 'x')) VIRTUAL", ["table 'item' of another definition"]),
        ("DROP TABLE delivery; CREATE VIEW delivery AS SELECT * FROM item", ["view 'delivery'"]),
        ("CREATE TABLE \"x\u{1B}]0;owned\u{07}\" (a)", ["table 'x?]0;owned?'"]),
    ])
    func whatVodappDidNotMakeIsRefusedByName(_ sql: String, _ named: [String]) throws {
        let (scratch, dir, store) = try directory()
        _ = try StateStore(directory: dir)
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        #expect(refusal(dir) == named)
        #expect(refusal(dir, readOnly: true) == named)
        let line = StateStoreError.oneLine(StateStoreError.foreign(path: store, objects: named))
        #expect(line == "\(store) holds what vodapp did not make (\(named.joined(separator: ", "))); move .vodapp/state.sqlite aside to start afresh")
        _ = scratch
    }
}
