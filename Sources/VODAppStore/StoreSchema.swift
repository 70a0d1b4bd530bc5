import GRDB
import VODAppBase

/// What vodapp's migrations create in a store, and the check that a store holds nothing else.
///
/// Whoever can write DIR can hand vodapp a database of their own making: a view where a table
/// is expected (a recursive one never ends, and sorting its rows fills a temporary file), a
/// trigger that runs on vodapp's writes, a generated column, a virtual table. SQLite runs all of
/// them as soon as a query touches their names, so a store is checked before it is read or
/// migrated: every object in `sqlite_master` must be one of vodapp's, by type, name and table,
/// each table's columns among that table's (no generated column), each index SQLite's own for
/// a key. A store of an earlier version, with fewer columns, passes; its migration adds them.
enum StoreSchema {
    /// One object of the schema, as `sqlite_master` names it.
    struct Object: Hashable {
        let type: String
        let name: String
        let table: String
    }

    /// A column as `PRAGMA table_xinfo` gives it.
    struct Column: Hashable {
        let name: String
        let type: String
        /// 0 for an ordinary column; 2 or 3 for a generated one, 1 in a virtual table.
        let hidden: Int
    }

    struct Known {
        var objects: [Object: String?] = [:]
        var columns: [String: Set<Column>] = [:]
    }

    /// The objects of a store that every migration made, read from one made in memory.
    static let known: Known = {
        guard let queue = try? DatabaseQueue(), (try? StateStore.migrator.migrate(queue)) != nil else { return Known() }
        return (try? queue.read { db -> Known in
            var known = Known()
            for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master") {
                let object = Object(type: row["type"], name: row["name"], table: row["tbl_name"])
                known.objects[object] = row["sql"] as String?
                if object.type == "table" { known.columns[object.name] = try columns(of: object.name, in: db) }
            }
            return known
        }) ?? Known()
    }()

    /// The digest (`digest(of:)`) of `sqlite_master` in a store every migration made. A store
    /// whose `sqlite_master` has it is vodapp's current schema, object for object and column for
    /// column: SQLite builds its schema from those rows' SQL, in which ALTER TABLE writes the
    /// columns it adds, and SHA-256 lets nobody make other rows with the same digest. So it needs
    /// no comparison with `known`, which runs every migration in an in-memory database: 4 ms of
    /// every delivery that opens the store. `StoreSchemaTests` checks it against the migrations:
    /// a new migration changes it.
    static let currentDigest = "a31c9f0edf7a70b8a694088667a9e0ce0cd2bdc315b9be6ecf4d9c53eb3bad3a"

    /// SHA-256 of `rows` (type, name, table and SQL, in the order given), each field prefixed
    /// with its length so that no two lists of rows read the same.
    static func digest(of rows: [Row]) -> String {
        var running = FileFingerprint.Running(key: nil)
        for row in rows {
            let fields: [String?] = [row["type"], row["name"], row["tbl_name"], row["sql"]]
            for field in fields {
                var text = field.map { "\($0.utf8.count):\($0)" } ?? "-"
                text.withUTF8 { running.update(UnsafeRawBufferPointer($0)) }
            }
        }
        return running.finish()
    }

    /// `sqlite_master`'s rows, in the order `digest(of:)` reads them.
    static func objects(in db: Database) throws -> [Row] {
        try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
    }

    /// Throws `StateStoreError.foreign` when the store open as `db`, at `path`, holds an object
    /// vodapp did not make.
    static func verify(_ db: Database, path: String) throws {
        let rows = try objects(in: db)
        // The current schema, as the migrations leave it: nothing else to look at.
        if digest(of: rows) == currentDigest { return }
        // Another version's, or not vodapp's: object by object.
        let known = Self.known
        var foreign: [String] = []
        for row in rows {
            let object = Object(type: row["type"] ?? "", name: row["name"] ?? "", table: row["tbl_name"] ?? "")
            let sql: String? = row["sql"]
            let label = UntrustedText.sanitized("\(object.type) '\(object.name)'", limit: 80, replacingControlsWith: "?")
            guard let expected = known.objects[object] else {
                foreign.append(label)
                continue
            }
            switch object.type {
            case "table":
                // A virtual table's columns come from its module, which `table_xinfo` would load.
                guard sql?.uppercased().hasPrefix("CREATE TABLE") == true,
                      try columns(of: object.name, in: db).isSubset(of: known.columns[object.name] ?? []) else {
                    foreign.append(label + " of another definition")
                    continue
                }
            case "index":
                // vodapp's are SQLite's own, for primary keys, which have no SQL: another index
                // under their name could be on an expression.
                if sql != expected { foreign.append(label + " of another definition") }
            default:
                foreign.append(label)
            }
        }
        if !foreign.isEmpty { throw StateStoreError.foreign(path: path, objects: foreign) }
    }

    private static func columns(of table: String, in db: Database) throws -> Set<Column> {
        Set(try Row.fetchAll(db, sql: "SELECT name, type, hidden FROM pragma_table_xinfo(?)", arguments: [table]).map { row in
            Column(name: row["name"] ?? "", type: (row["type"] as String? ?? "").uppercased(), hidden: row["hidden"] ?? 0)
        })
    }
}
