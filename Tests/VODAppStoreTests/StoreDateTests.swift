import Foundation
import GRDB
import Testing
@testable import VODAppStore

/// The text a date is stored as, written without GRDB's formatter, is GRDB's own, and reads back
/// as GRDB reads its own.
@Suite struct StoreDateTests {
    private static let edges: [TimeInterval] = [
        0, 0.0004, 0.0005, 0.999, 0.9995, 0.9999999, 59.999, 86_399.9999, 951_782_400, // 2000-02-29
        978_307_199.9995, 1_700_000_000.123456, 4_102_444_800, // 2100-01-01
        253_402_300_799.999, // the last millisecond of 9999
        -0.001, -1, -86_400.5, 253_402_300_800, // outside: GRDB's own
    ]

    @Test func itIsGRDBsTextForEveryDateAroundTheEdges() {
        for seconds in Self.edges {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(StoreDate.value(date) == date.databaseValue, "\(seconds)")
        }
        for date in [Date.distantPast, .distantFuture, Date()] {
            #expect(StoreDate.value(date) == date.databaseValue, "\(date)")
        }
        #expect(StoreDate.value(nil as Date?) == .null)
    }

    @Test func itIsGRDBsTextForManyDatesFrom1970To9999() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            // Whole seconds, and fractions near a millisecond's edge, where rounding shows.
            let seconds = Double(Int64.random(in: 0..<253_402_300_800, using: &generator))
            let fraction = [Double.random(in: 0..<1, using: &generator), Double(Int.random(in: 0..<1000)) / 1000 + 0.0009999]
            for part in fraction {
                let date = Date(timeIntervalSince1970: seconds + part)
                #expect(StoreDate.value(date) == date.databaseValue, "\(seconds + part)")
            }
        }
    }

    @Test func itReadsBackAsGRDBsOwn() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            for seconds in Self.edges {
                let date = Date(timeIntervalSince1970: seconds)
                // GRDB cannot read back its own text for the year 10000: neither then.
                let ours = try? Date.fetchOne(db, sql: "SELECT ?", arguments: [StoreDate.value(date)])
                let theirs = try? Date.fetchOne(db, sql: "SELECT ?", arguments: [date])
                #expect(ours == theirs, "\(seconds)")
            }
        }
    }

    /// What GRDB reads from `text`.
    private func grdbsDate(_ text: String) throws -> Date? {
        try DatabaseQueue().read { db in try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]) }
    }

    @Test func itReadsItsOwnTextAsGRDBDoes() throws {
        var generator = SystemRandomNumberGenerator()
        let queue = try DatabaseQueue()
        try queue.read { db in
            for _ in 0..<5_000 {
                let date = Date(timeIntervalSince1970: Double(Int64.random(in: 0..<253_402_300_800_000, using: &generator)) / 1000)
                guard case .string(let text) = StoreDate.value(date).storage else { Issue.record("not text"); return }
                let grdb = try Date.fetchOne(db, sql: "SELECT ?", arguments: [text])
                #expect(StoreDate.date(text) == grdb, "\(text)")
                // GRDB's own text keeps milliseconds, and its reading is not exact below them.
                #expect(abs(StoreDate.date(text)!.timeIntervalSince(date)) < 0.001, "\(text)")
            }
        }
    }

    /// Text in any other form is not read here (GRDB reads it, or refuses it).
    @Test(arguments: ["", "2026-11-27", "2026-11-27 10:00", "2026-11-27 10:00:00", "2026-11-27T10:00:00.000",
                      "2026-11-27 10:00:00.000Z", "2026-11-27 10:00:00.0000", "2026-02-30 00:00:00.000", "2026-13-01 00:00:00.000",
                      "1969-12-31 23:59:59.999", "2026-11-27 24:00:00.000", "2026-11-27 10:60:00.000", "202६-11-27 10:00:00.000",
                      "garbage garbage garbage"])
    func otherTextIsLeftToGRDB(_ text: String) {
        #expect(StoreDate.date(text) == nil)
    }
}
