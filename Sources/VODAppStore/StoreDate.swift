import Foundation
import GRDB

/// A date as GRDB stores one, "yyyy-MM-dd HH:mm:ss.SSS" in UTC, written without the
/// `DateFormatter` GRDB formats every bound `Date` with.
///
/// An item's record binds three dates and is written twice a delivery: through the formatter,
/// that was 2 % of a 200-item delivery's CPU. The same text is written here from `gmtime_r`,
/// for dates from 1970 to 9999 (those vodapp stores); any other goes through GRDB, whose calendar
/// switches to the Julian one before 1582. GRDB reads both back alike. `StoreDateTests` holds the
/// text to GRDB's own.
enum StoreDate {
    /// The milliseconds since 1970 at the start of the year 10000.
    private static let yearTenThousand: Int64 = 253_402_300_800_000

    /// `date` as GRDB would bind it.
    static func value(_ date: Date) -> DatabaseValue {
        // Whole milliseconds, rounded to the nearest, as Foundation hands a date to ICU's formatter.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds >= 0, milliseconds < Double(yearTenThousand) else { return date.databaseValue }
        let whole = Int64(milliseconds)
        var seconds = time_t(whole / 1000)
        var fields = tm()
        guard gmtime_r(&seconds, &fields) != nil else { return date.databaseValue }
        var text = [UInt8](repeating: 0, count: 23)
        func put(_ value: Int, at offset: Int, digits: Int) {
            var value = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(Int(fields.tm_year) + 1900, at: 0, digits: 4)
        put(Int(fields.tm_mon) + 1, at: 5, digits: 2)
        put(Int(fields.tm_mday), at: 8, digits: 2)
        put(Int(fields.tm_hour), at: 11, digits: 2)
        put(Int(fields.tm_min), at: 14, digits: 2)
        put(Int(fields.tm_sec), at: 17, digits: 2)
        put(Int(whole % 1000), at: 20, digits: 3)
        for (offset, separator) in [(4, "-"), (7, "-"), (10, " "), (13, ":"), (16, ":"), (19, ".")] {
            text[offset] = UInt8(ascii: Unicode.Scalar(separator)!)
        }
        return String(decoding: text, as: UTF8.self).databaseValue
    }

    /// `date` as GRDB would bind it; NULL for none.
    static func value(_ date: Date?) -> DatabaseValue {
        date.map(value) ?? .null
    }
}
