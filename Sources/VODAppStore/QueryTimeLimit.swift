import Dispatch
import GRDB
import GRDBSQLite

/// How long the store's SQL may run for one operation: a store is a few thousand rows, read or
/// written in milliseconds, so an operation still running after two seconds is running something
/// vodapp did not write (a store made to be slow, in a DIR others can write) and is interrupted
/// (`SQLITE_INTERRUPT`, one line for the user) instead of spinning and filling a temporary file.
///
/// The clock starts inside the transaction, once its lock is held: waiting for another
/// process's lock is `StoreWaitLimit`'s to bound, by the caller's deadline.
enum QueryTimeLimit {
    static let limit: Duration = .seconds(2)

    /// Runs `body` on `db`, interrupting its statements once it has run for `limit`.
    static func run<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        let connection = Connection(pointer: db.sqliteConnection)
        return try run(interrupting: { if let pointer = connection.pointer { sqlite3_interrupt(pointer) } }, body)
    }

    /// A queue of its own, not the global one: the global queue runs at most a thread per core,
    /// and blocking work queued there held a timer back for 17 s on a loaded machine. A queue of
    /// its own gets a thread when the others are busy.
    private static let timers = DispatchQueue(label: "vodapp.query-time-limit")

    /// Runs `body`, calling `interrupt` from another thread once it has run for `limit`.
    /// `sqlite3_interrupt` is safe from any thread, and one that lands after the last statement
    /// ended is forgotten when the connection's next statement starts.
    static func run<T>(interrupting interrupt: @escaping @Sendable () -> Void, _ body: () throws -> T) throws -> T {
        let timer = DispatchWorkItem(block: interrupt)
        let (seconds, attoseconds) = limit.components
        timers.asyncAfter(
            deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)), execute: timer)
        defer { timer.cancel() }
        return try body()
    }

    /// A connection's handle, for the timer's thread: SQLite allows `sqlite3_interrupt` from
    /// any thread while the connection is open, and the store's connections outlive its calls.
    private struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer?
    }
}
