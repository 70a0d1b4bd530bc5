import Foundation
import GRDB
import VODAppBase

/// How an item's record is read: column by column, the columns `StoredItem+Upsert` writes.
///
/// GRDB reads a `Codable` record through a decoder that looks each property up by key and asks
/// the runtime for its type's conformances: 0.09 ms a row in a release build, most of what reading
/// ten records cost a delivery whose items were all present.
extension StoredItem {
    /// - Throws: GRDB's `RowDecodingError` for a value of the wrong type (a date that is not
    ///   one), a `DecodingError` for a state vodapp has no name for: a record edited by hand, which
    ///   `StateStoreError.oneLine` says in one line.
    public init(row: Row) throws {
        let stateName: String = try row.decode(forColumn: "state")
        guard let state = State(rawValue: stateName) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "item.state '\(stateName)' is no state vodapp knows"))
        }
        key = try row.decode(forColumn: "key")
        title = try row.decode(forColumn: "title")
        url = try row.decode(forColumn: "url")
        self.state = state
        path = try row.decode(forColumn: "path")
        bytes = try row.decode(forColumn: "bytes")
        etag = try row.decode(forColumn: "etag")
        lastModified = try row.decode(forColumn: "lastModified")
        error = try row.decode(forColumn: "error")
        attempts = try row.decode(forColumn: "attempts")
        nextAttemptAt = try StoreDate.decode(row, column: "nextAttemptAt")
        final = try row.decode(Bool?.self, forColumn: "final") ?? false
        total = try row.decode(forColumn: "total")
        fileID = try row.decode(forColumn: "fileID")
        fingerprint = try row.decode(forColumn: "fingerprint")
        vouched = try row.decode(Bool?.self, forColumn: "vouched") ?? true
        variantCeiling = try row.decode(forColumn: "variantCeiling")
        variantCeilingLimit = try row.decode(forColumn: "variantCeilingLimit")
        subtitles = try row.decode(forColumn: "subtitles")
        subtitle = try row.decode(forColumn: "subtitle")
        unendedStarts = try row.decode(Int?.self, forColumn: "unendedStarts") ?? 0
        removedByVodapp = try row.decode(Bool?.self, forColumn: "removedByVodapp") ?? false
        namedAt = try StoreDate.decode(row, column: "namedAt")
        // NULL, where a date must be, is GRDB's own error.
        updatedAt = try StoreDate.decode(row, column: "updatedAt") ?? row.decode(Date.self, forColumn: "updatedAt")
    }
}

extension StoredItem {
    /// The records of `keys`, through one prepared statement that takes the keys as one JSON
    /// array: GRDB's `fetchAll(_:keys:)` first reads the table's primary key from the schema and
    /// builds its SQL through the query interface, 1.2 ms of a 10-present run's 22, and binds one
    /// variable a key, which SQLite bounds.
    static func records(keyed keys: [String], in db: Database) throws -> [StoredItem] {
        let list = CompactJSON.text(keys, fallback: "[]")
        let statement = try db.cachedStatement(sql: "SELECT * FROM item WHERE key IN (SELECT value FROM json_each(?))")
        return try Row.fetchAll(statement, arguments: [list]).map(StoredItem.init(row:))
    }
}
