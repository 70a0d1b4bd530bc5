import Foundation
import GRDB
import Testing
import UnitTestSupport
@testable import VODAppStore

/// The store's bound on how long its SQL runs, on a real SQLite file.
@Suite struct QueryTimeLimitTests {
    /// SQL that never ends is stopped after the limit, with one line that says what to do.
    @Test func aQueryThatNeverEndsIsInterruptedAfterTheLimit() throws {
        let scratch = try ScratchDirectory()
        let queue = try DatabaseQueue(path: scratch.child("state.sqlite"))
        let started = ContinuousClock.now
        var caught: (any Error)?
        do {
            _ = try queue.read { db in
                try QueryTimeLimit.run(db) {
                    try Int.fetchOne(db, sql: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r")
                }
            }
        } catch {
            caught = error
        }
        // Without the limit it never ends; the margin is for a loaded machine's timer thread.
        let elapsed = started.duration(to: .now)
        #expect((caught as? DatabaseError)?.resultCode == .SQLITE_INTERRUPT, "\(String(describing: caught))")
        #expect(elapsed >= QueryTimeLimit.limit && elapsed < TimeBound.duration(QueryTimeLimit.limit + .seconds(3)), "\(elapsed)")
        #expect(caught.map(StateStoreError.oneLine)
                == "a query of its store ran past 2 s and was stopped: was it made to be slow? move .vodapp/state.sqlite aside to start afresh")
        // The connection is not left interrupted: the next query runs.
        #expect(try queue.read { db in try QueryTimeLimit.run(db) { try Int.fetchOne(db, sql: "SELECT 1") } } == 1)
        _ = scratch
    }
}
