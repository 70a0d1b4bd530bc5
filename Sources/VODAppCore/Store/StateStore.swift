import Foundation
import GRDB
import NIOConcurrencyHelpers

/// What DIR holds and what is pending, in SQLite: `DIR/.vodapp/state.sqlite`, WAL mode, so that
/// several vodapp processes and a listener can share it.
///
/// The store is a record, not the truth: a file's presence in DIR decides `alreadyPresent`, so a
/// lost or damaged store costs at most some resumable bytes, never a wrong report.
public final class StateStore: Sendable {
    private let pool: DatabasePool

    /// Opens (creating and migrating as needed) the store of `directory`, whose work area must
    /// exist.
    public init(directory: String) throws {
        var configuration = Configuration()
        // Writers from other processes hold the lock for milliseconds; wait rather than fail.
        configuration.busyMode = .timeout(5)
        // In WAL mode NORMAL cannot corrupt the database; a power cut may lose the last records,
        // which the files in DIR make good. FULL would add an fsync to every delivery's log line.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: directory + "/.vodapp/state.sqlite", configuration: configuration)
        try Self.migrator.migrate(pool)
    }

    private static let openStores = NIOLockedValueBox<[String: StateStore]>([:])

    /// The store of `directory`, opened once per process: a listener's deliveries share one
    /// connection pool instead of opening and migrating the database each time.
    public static func shared(directory: String) throws -> StateStore {
        try openStores.withLockedValue { stores in
            if let store = stores[directory] { return store }
            let store = try StateStore(directory: directory)
            stores[directory] = store
            return store
        }
    }

    /// How many deliveries the log keeps; older lines are dropped as new ones come.
    static let deliveriesKept = 1000

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "item") { table in
                table.primaryKey("key", .text)
                table.column("title", .text)
                table.column("url", .text).notNull()
                table.column("state", .text).notNull()
                table.column("path", .text)
                table.column("bytes", .integer)
                table.column("etag", .text)
                table.column("lastModified", .text)
                table.column("error", .text)
                table.column("attempts", .integer).notNull().defaults(to: 0)
                table.column("nextAttemptAt", .datetime)
                table.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "delivery") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("startedAt", .datetime).notNull()
                table.column("source", .text).notNull()
                table.column("origin", .text)
                table.column("result", .text).notNull()
                table.column("items", .integer).notNull()
                table.column("downloaded", .integer).notNull()
                table.column("failed", .integer).notNull()
                table.column("elapsedSeconds", .double).notNull()
                table.column("note", .text)
            }
        }
        migrator.registerMigration("v2: final failures") { db in
            try db.alter(table: "item") { table in
                table.add(column: "final", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("v3: the size of a partial's file") { db in
            try db.alter(table: "item") { table in
                table.add(column: "total", .integer)
            }
        }
        return migrator
    }

    /// The records of `keys` that exist.
    public func items(_ keys: [String]) throws -> [String: StoredItem] {
        try pool.read { db in
            let found = try StoredItem.fetchAll(db, keys: keys)
            return Dictionary(found.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        }
    }

    public func allItems() throws -> [StoredItem] {
        try pool.read { db in try StoredItem.order(Column("key")).fetchAll(db) }
    }

    /// Saves `items` in one transaction. A failure counts the attempts since the last success and,
    /// unless the server said when, waits a minute for the next one, doubling each time up to six
    /// hours.
    public func save(_ items: [StoredItem]) throws {
        guard !items.isEmpty else { return }
        try pool.write { db in
            for var item in items {
                if item.state == .failed || item.state == .partial {
                    let previous = try StoredItem.fetchOne(db, key: item.key)
                    let earlier = previous.map { $0.state == .failed || $0.state == .partial ? $0.attempts : 0 } ?? 0
                    item.attempts = earlier + 1
                }
                if item.state == .failed, !item.final, item.nextAttemptAt == nil {
                    let wait = min(6 * 3600, 60 * pow(2, Double(min(item.attempts - 1, 20))))
                    item.nextAttemptAt = Date(timeIntervalSinceNow: wait)
                }
                try item.save(db)
            }
        }
    }

    public func log(_ entry: DeliveryLogEntry) throws {
        try pool.write { db in
            var entry = entry
            try entry.insert(db)
            if let id = entry.id, id > Self.deliveriesKept {
                try DeliveryLogEntry.filter(Column("id") <= id - Int64(Self.deliveriesKept)).deleteAll(db)
            }
        }
    }

    public func lastDeliveries(_ count: Int) throws -> [DeliveryLogEntry] {
        try pool.read { db in
            try DeliveryLogEntry.order(Column("id").desc).limit(count).fetchAll(db)
        }
    }
}
