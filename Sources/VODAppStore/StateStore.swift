import Foundation
import GRDB
import NIOConcurrencyHelpers
import VODAppBase

/// What DIR holds and what is pending, in SQLite: `DIR/.vodapp/state.sqlite`, WAL mode, so that
/// several vodapp processes and a listener can share it.
///
/// The store is a record, not the truth: a file's presence in DIR decides `alreadyPresent`, so a
/// lost or damaged store costs at most some resumable bytes, never a wrong report.
public final class StateStore: Sendable {
    /// The connections, in WAL mode: one, or a pool of them (`ConnectionMode`); one read-only
    /// connection for `readOnly`.
    let pool: any DatabaseWriter
    private let waits: StoreWaitLimit
    /// The work area, held open: SQLite opens the database and its `-wal` and `-shm` through it
    /// (`/proc/self/fd/N/state.sqlite`), so that a `.vodapp` swapped for another folder mid-run
    /// cannot have the store created, read or written there (fourth attacker trial: the store was
    /// made in the user's Documents, and a forged one made retention remove the user's file).
    private let workArea: Int32

    deinit {
        if workArea >= 0 { close(workArea) }
    }

    /// Opens (creating and migrating as needed) the store of `directory`, whose work area must
    /// exist.
    /// - Parameter deadline: when to give up waiting for a lock another process holds; nil for
    ///   `StoreWaitLimit.defaultWait`. Every operation bounds its waits the same way.
    /// - Throws: `StateStoreError.unsafe` when the work area or the database file is not what
    ///   vodapp made (a symbolic link, a FIFO, a hard link), or a file beside it is not and the
    ///   store is in use (`StoreSideFiles`); `StateStoreError.foreign` when the database holds
    ///   objects vodapp did not make (`StoreSchema`); or GRDB's error.
    /// - Parameter readOnly: only reads, never creates, migrates or writes (`vodapp status`,
    ///   which must not change DIR).
    /// - Parameter connections: one connection or a pool (`ConnectionMode`); the process's mode
    ///   unless said.
    public init(directory: String, until deadline: ContinuousClock.Instant? = nil, readOnly: Bool = false,
                connections: ConnectionMode = StateStore.connectionMode) throws {
        let path = directory + "/.vodapp/state.sqlite"
        try Self.check(workArea: directory + "/.vodapp", database: path)
        let planted = StoreSideFiles.planted(beside: path)
        if let first = planted.first {
            // A reader removes nothing, and cannot read around them: the database file alone may
            // hold no record (SQLite checkpoints its log into it only now and then).
            guard !readOnly else {
                throw StateStoreError.unsafe("\(first.description): status changes nothing, and the next delivery replaces it once no process uses the store")
            }
            try StoreSideFiles.removePlanted(beside: path, planted)
        }
        let held: Int32
        do {
            let folder = try Folder.openWorkArea(in: directory)
            held = fcntl(folder.descriptor, F_DUPFD_CLOEXEC, 0)
        } catch {
            throw StateStoreError.unsafe(error.description)
        }
        workArea = held
        // Without /proc (a chroot that lacks it), by name, as before.
        let opened = held >= 0 && access("/proc/self/fd/\(held)", X_OK) == 0 ? "/proc/self/fd/\(held)/state.sqlite" : path
        let waits = StoreWaitLimit()
        self.waits = waits
        var configuration = Configuration()
        configuration.readonly = readOnly
        // Writers from other processes hold the lock for milliseconds: wait, but never past the
        // deadline of the operation waiting (`StoreWaitLimit`).
        configuration.busyMode = .callback { tries in waits.retry(tries: tries) }
        configuration.prepareDatabase { db in
            // Functions with side effects and virtual tables are not run from the schema, which
            // anyone who can write DIR can have written.
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            // In WAL mode NORMAL cannot corrupt the database; a power cut may lose the last
            // records, which the files in DIR make good. FULL would add an fsync to every
            // delivery's log line.
            if !readOnly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        pool = try waits.during(until: deadline) {
            guard !readOnly else {
                let queue = try Self.readOnlyConnection(opened, configuration: configuration)
                try queue.read { db in try QueryTimeLimit.run(db) { try StoreSchema.verify(db, path: path) } }
                return queue
            }
            let pool: any DatabaseWriter = switch connections {
            case .pool: try DatabasePool(path: opened, configuration: configuration)
            case .single: try Self.singleConnection(opened, configuration: configuration)
            }
            // Checked before the migrator reads the store: it would run what is there.
            try pool.read { db in try QueryTimeLimit.run(db) { try StoreSchema.verify(db, path: path) } }
            try QueryTimeLimit.run(interrupting: { pool.interrupt() }) { try Self.migrator.migrate(pool) }
            return pool
        }
    }

    /// A store on `writer`, migrated: an in-memory `DatabaseQueue` in unit tests, which need no
    /// DIR, no file and no other process. The checks of a store in DIR (links, FIFOs, foreign
    /// objects) are `init(directory:)`'s.
    package init(writer: any DatabaseWriter) throws {
        pool = writer
        waits = StoreWaitLimit()
        workArea = -1
        try Self.migrator.migrate(writer)
    }

    /// How many connections a store opens: one for a command, which runs one delivery at a time;
    /// a pool for a listener, whose deliveries overlap, so that one's reads never wait behind
    /// another's write. A pool opens a second connection for its first read, which parses the
    /// schema again and checks it: about 1.4 ms of every command's 22.
    public enum ConnectionMode: Sendable {
        case single, pool
    }

    private static let connectionModeBox = NIOLockedValueBox(ConnectionMode.single)

    /// The mode of the stores this process opens from now on: a listener sets `.pool` before
    /// its first delivery.
    public static var connectionMode: ConnectionMode {
        get { connectionModeBox.withLockedValue { $0 } }
        set { connectionModeBox.withLockedValue { $0 = newValue } }
    }

    /// One connection that reads and writes, in WAL mode as a pool's are: another process (a
    /// listener, `vodapp status`) reads while it writes, and a store it creates is one a pool opens.
    ///
    /// The mode is asked for here, not through GRDB's `journalMode = .wal`, which also makes sure
    /// the log file is not empty, for a pool's readers, and asks through Foundation's URL resource
    /// values: 0.7 ms of every command's 20. A pool, a listener's, makes sure of it itself.
    private static func singleConnection(_ path: String, configuration: Configuration) throws -> DatabaseQueue {
        var configuration = configuration
        configuration.prepareDatabase { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw DatabaseError(message: "could not put the store in WAL mode")
            }
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// A connection that writes nothing in the work area. A read-only connection to a WAL
    /// database still creates its `-wal` and `-shm` files when they are absent (the last process
    /// to close the store removes them); then the database file holds every record, and it is
    /// opened as immutable, which creates nothing. While they exist, another process may be
    /// writing, so the connection reads through them as usual.
    private static func readOnlyConnection(_ path: String, configuration: Configuration) throws -> DatabaseQueue {
        if case .absent = SafeFile.inspect(path + "-wal") {
            let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            return try DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: configuration)
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// SQLite follows symbolic links and would open a FIFO: the store is refused unless its
    /// directory is a real directory and the database is absent or a regular file of one link,
    /// so that another application's database is never given vodapp's tables. The files beside
    /// it are `StoreSideFiles`'.
    private static func check(workArea: String, database: String) throws {
        var info = stat()
        guard lstat(workArea, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw StateStoreError.unsafe("\(workArea) is not a directory (a symbolic link or a file)")
        }
        if case .unsafe(let failure) = SafeFile.inspect(database) {
            throw StateStoreError.unsafe(failure.description)
        }
    }

    /// Whether `directory` has a store: false only when there is none; a store that cannot be
    /// looked at (a work area or DIR the user may not read) is an error, not an empty history.
    public static func exists(in directory: String) throws -> Bool {
        var info = stat()
        if lstat(directory + "/.vodapp/state.sqlite", &info) == 0 { return true }
        let failure = errno
        guard failure == ENOENT else { throw StoreAccessError(path: directory + "/.vodapp/state.sqlite", errno: failure) }
        // ENOENT: none, unless DIR itself cannot be listed (then its .vodapp is unknown).
        guard access(directory, R_OK | X_OK) == 0 else { throw StoreAccessError(path: directory, errno: errno) }
        return false
    }

    private static let openStores = NIOLockedValueBox<[String: StateStore]>([:])

    /// The store of `directory`, opened once per process: a listener's deliveries share one
    /// connection pool instead of opening and migrating the database each time.
    public static func shared(directory: String, until deadline: ContinuousClock.Instant? = nil) throws -> StateStore {
        try openStores.withLockedValue { stores in
            if let store = stores[directory] {
                // Checked on every use, not only the first: a listener runs for weeks. This
                // process has the store open, so nothing planted beside it is removed.
                let path = directory + "/.vodapp/state.sqlite"
                try check(workArea: directory + "/.vodapp", database: path)
                if let planted = StoreSideFiles.planted(beside: path).first { throw StateStoreError.unsafe(planted.description) }
                try store.read(until: deadline) { db in try StoreSchema.verify(db, path: path) }
                return store
            }
            let store = try StateStore(directory: directory, until: deadline)
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
        migrator.registerMigration("v4: the placed file's identity") { db in
            try db.alter(table: "item") { table in
                table.add(column: "fileID", .text)
            }
        }
        migrator.registerMigration("v5: the placed file's fingerprint") { db in
            try db.alter(table: "item") { table in
                table.add(column: "fingerprint", .text)
            }
        }
        migrator.registerMigration("v6: whether a source that vouches for its pushes named the item") { db in
            try db.alter(table: "item") { table in
                table.add(column: "vouched", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("v7: the variants of a stream that passed the size limit") { db in
            try db.alter(table: "item") { table in
                table.add(column: "variantCeiling", .integer)
                table.add(column: "variantCeilingLimit", .integer)
            }
        }
        migrator.registerMigration("v8: the subtitle files placed beside an item's") { db in
            try db.alter(table: "item") { table in
                table.add(column: "subtitles", .text)
            }
        }
        migrator.registerMigration("v9: retries without a push, the latest push, removals by vodapp") { db in
            try db.alter(table: "item") { table in
                table.add(column: "subtitle", .text)
                table.add(column: "unendedStarts", .integer).notNull().defaults(to: 0)
                table.add(column: "removedByVodapp", .boolean).notNull().defaults(to: false)
                table.add(column: "namedAt", .datetime)
            }
            try db.create(table: "latestPush") { table in
                table.primaryKey("position", .integer)
                table.column("key", .text).notNull()
                table.column("title", .text).notNull()
                table.column("subtitle", .text)
                table.column("vouched", .boolean).notNull()
            }
        }
        migrator.registerMigration("v10: the key of the placed files' fingerprints") { db in
            try db.create(table: "fingerprintKey") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("key", .blob).notNull()
            }
            try db.execute(sql: "INSERT INTO fingerprintKey (id, key) VALUES (1, ?)", arguments: [Data(FingerprintKey.random().bytes)])
        }
        return migrator
    }

    /// The key under which the files placed in DIR are fingerprinted (`FileFingerprint`), made
    /// with the store. One found missing or not 16 bytes long is made afresh: what was
    /// fingerprinted under the old one then never matches, and retention keeps those files.
    package func fingerprintKey(until deadline: ContinuousClock.Instant? = nil) throws -> FingerprintKey {
        let select = "SELECT key FROM fingerprintKey WHERE id = 1"
        if let key = try read(until: deadline, { db in try Data.fetchOne(db, sql: select) }).flatMap(FingerprintKey.init(bytes:)) {
            return key
        }
        return try write(until: deadline) { db in
            if let key = try Data.fetchOne(db, sql: select).flatMap(FingerprintKey.init(bytes:)) { return key }
            let key = FingerprintKey.random()
            try db.execute(sql: "INSERT OR REPLACE INTO fingerprintKey (id, key) VALUES (1, ?)", arguments: [Data(key.bytes)])
            return key
        }
    }

    /// The records of `keys` that exist.
    public func items(_ keys: [String], until deadline: ContinuousClock.Instant? = nil) throws -> [String: StoredItem] {
        guard !keys.isEmpty else { return [:] }
        return try read(until: deadline) { db in
            let found = try StoredItem.records(keyed: keys, in: db)
            return Dictionary(found.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        }
    }

    /// The records of every item in one of `states`, by key.
    public func items(in states: Set<StoredItem.State>, until deadline: ContinuousClock.Instant? = nil) throws -> [StoredItem] {
        try read(until: deadline) { db in
            try StoredItem.filter(states.map(\.rawValue).contains(Column("state"))).order(Column("key")).fetchAll(db)
        }
    }

    public func allItems() throws -> [StoredItem] {
        try read(until: nil) { db in try StoredItem.order(Column("key")).fetchAll(db) }
    }

    /// Forgets everything recorded of `keys`: the next push naming them fetches them as new.
    public func forget(_ keys: [String]) throws {
        try write(until: nil) { db in
            _ = try StoredItem.deleteAll(db, keys: keys)
        }
    }

    /// Saves `items` in one transaction, each failure or partial with its attempts counted and its
    /// next attempt set (`RetryBackoff`).
    public func save(_ items: [StoredItem], until deadline: ContinuousClock.Instant? = nil) throws {
        guard !items.isEmpty else { return }
        try write(until: deadline) { db in
            let now = Date()
            for item in items {
                let earlier = item.state == .failed || item.state == .partial ? try StoredItem.attemptsRecorded(for: item.key, in: db) : nil
                try RetryBackoff.scheduled(item, after: earlier, now: now).upsert(db)
            }
        }
    }

    /// Records that a transfer under way can be resumed from its file (`partial`, with the
    /// validator and size a resume needs), without counting an attempt: if the process dies
    /// before the transfer ends, the next delivery resumes instead of starting over.
    public func checkpoint(_ item: StoredItem, until deadline: ContinuousClock.Instant? = nil) throws {
        try checkpoint([item], until: deadline)
    }

    /// `checkpoint(_:until:)` of several items, in one transaction, in order.
    public func checkpoint(_ items: [StoredItem], until deadline: ContinuousClock.Instant? = nil) throws {
        guard !items.isEmpty else { return }
        try write(until: deadline) { db in
            for var item in items {
                // The transfer has not ended: its start stays counted (`markStarted`).
                let earlier = try StoredItem.attemptsRecorded(for: item.key, in: db)
                item.attempts = earlier?.attempts ?? 0
                item.unendedStarts = earlier?.unendedStarts ?? 1
                try item.upsert(db)
            }
        }
    }

    /// How long a record that holds no file (failed, too large, removed, deferred) is kept after
    /// a push last named its item: the store of a box that runs for years stays small.
    public static let forgetAfter: TimeInterval = 30 * 86_400

    /// What a delivery records as it begins, in one transaction, and returns whether its push is
    /// now the latest:
    /// - each item it takes (`started`): a known key's start counted, a new key recorded as given
    ///   (`StoredItem(started:)`, one start). The record of how the delivery ends sets the count
    ///   back to 0, so what stays counted is a delivery the process did not survive, however
    ///   early it died;
    /// - its push's items (`push`; none for a listener's retry): each named now
    ///   (`StoredItem.namedAt`); the latest push, unless they are not vouched for and the latest
    ///   push is (a push anyone could send does not take the place of the person's);
    /// - and records that hold no file and that no push has named for `forgetAfter` forgotten.
    @discardableResult
    public func recordStart(push: [PushedItem], vouched: Bool, taking started: [StoredItem], now: Date = Date(),
                            until deadline: ContinuousClock.Instant? = nil) throws -> Bool {
        guard !push.isEmpty || !started.isEmpty else { return false }
        return try write(until: deadline) { db in
            for item in started { try item.insertStarted(db) }
            guard !push.isEmpty else { return false }
            let named = try db.cachedStatement(sql: "UPDATE item SET namedAt = ? WHERE key = ?")
            let namedAt = StoreDate.value(now)
            for item in push { try named.execute(arguments: [namedAt, item.key]) }
            try db.execute(sql: """
                DELETE FROM item WHERE state IN ('failed', 'tooLarge', 'removed', 'deferred')
                AND COALESCE(namedAt, updatedAt) < ?
                """, arguments: [StoreDate.value(now.addingTimeInterval(-Self.forgetAfter))])
            // Plain statements, each prepared once: GRDB's record insert encodes every row through
            // Codable, and its query interface builds the count, a third of a ten-item run's
            // time in the store.
            if !vouched, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM latestPush WHERE vouched)") == true { return false }
            try db.execute(sql: "DELETE FROM latestPush")
            let insert = try db.cachedStatement(sql: "INSERT INTO latestPush (position, key, title, subtitle, vouched) VALUES (?, ?, ?, ?, ?)")
            for item in push {
                try insert.execute(arguments: [item.position, item.key, item.title, item.subtitle, item.vouched])
            }
            return true
        }
    }

    /// The latest push's items, in its order; none before the first.
    public func latestPush(until deadline: ContinuousClock.Instant? = nil) throws -> [PushedItem] {
        try read(until: deadline) { db in try PushedItem.order(Column("position")).fetchAll(db) }
    }

    public func log(_ entry: DeliveryLogEntry, until deadline: ContinuousClock.Instant? = nil) throws {
        try write(until: deadline) { db in
            var entry = entry
            try entry.insert(db)
            if let id = entry.id, id > Self.deliveriesKept {
                try DeliveryLogEntry.filter(Column("id") <= id - Int64(Self.deliveriesKept)).deleteAll(db)
            }
        }
    }

    public func lastDeliveries(_ count: Int) throws -> [DeliveryLogEntry] {
        try read(until: nil) { db in
            try DeliveryLogEntry.order(Column("id").desc).limit(count).fetchAll(db)
        }
    }

    /// Runs `body` in a read transaction, waiting for locks until `deadline` and interrupted
    /// past `QueryTimeLimit.limit`.
    private func read<T>(until deadline: ContinuousClock.Instant?, _ body: (Database) throws -> T) throws -> T {
        try waits.during(until: deadline) { try pool.read { db in try QueryTimeLimit.run(db) { try body(db) } } }
    }

    /// Runs `body` in a write transaction, as `read` does.
    private func write<T>(until deadline: ContinuousClock.Instant?, _ body: (Database) throws -> T) throws -> T {
        try waits.during(until: deadline) { try pool.write { db in try QueryTimeLimit.run(db) { try body(db) } } }
    }
}
