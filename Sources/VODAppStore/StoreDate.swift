import Foundation
import GRDB

/// A date as GRDB stores one, "yyyy-MM-dd HH:mm:ss.SSS" in UTC, written and read without the
/// `DateFormatter` and `Calendar` GRDB goes through, which load ICU's calendar and its data.
///
/// An item's record binds three dates and is written twice a delivery: through the formatter,
/// that was 2 % of a 200-item delivery's CPU; reading ten records back took ICU's data into
/// memory (1.7 MiB). The same text is written here from `gmtime_r` and read with `timegm`, for
/// dates from 1970 to 9999 (those vodapp stores); any other date, and any other text (GRDB reads
/// several), goes through GRDB, whose calendar switches to the Julian one before 1582.
/// `StoreDateTests` holds both to GRDB's own.
enum StoreDate {
    /// The milliseconds since 1970 at the start of the year 10000.
    private static let yearTenThousand: Int64 = 253_402_300_800_000

    /// Where the text's separators are: "yyyy-MM-dd HH:mm:ss.SSS".
    private static let separators: [(offset: Int, byte: UInt8)] = [(4, 0x2D), (7, 0x2D), (10, 0x20), (13, 0x3A), (16, 0x3A), (19, 0x2E)]

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
        for (offset, byte) in separators { text[offset] = byte }
        return String(decoding: text, as: UTF8.self).databaseValue
    }

    /// `date` as GRDB would bind it; NULL for none.
    static func value(_ date: Date?) -> DatabaseValue {
        date.map(value) ?? .null
    }

    /// The date in `column`, nil for NULL: text in the form `value(_:)` writes is read here, and
    /// anything else as GRDB reads it (and refuses it: a date edited to "garbage" is GRDB's error).
    static func decode(_ row: Row, column: String) throws -> Date? {
        let stored: DatabaseValue = row[column]
        if stored.isNull { return nil }
        if case .string(let text) = stored.storage, let date = date(text) { return date }
        return try row.decode(Date?.self, forColumn: column)
    }

    /// `text` as the date `value(_:)` wrote it, or nil when it is not exactly that form.
    static func date(_ text: String) -> Date? {
        guard text.utf8.count == 23 else { return nil }
        let bytes = Array(text.utf8)
        guard separators.allSatisfy({ bytes[$0.offset] == $0.byte }) else { return nil }
        func number(_ offset: Int, _ digits: Int) -> Int? {
            var value = 0
            for byte in bytes[offset..<offset + digits] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
              let minute = number(14, 2), let second = number(17, 2), let millisecond = number(20, 3),
              year >= 1970, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        let seconds = timegm(&fields)
        // A day past the month's end (February 30th) is normalized by timegm: not this form.
        guard seconds >= 0, fields.tm_mday == Int32(day), fields.tm_mon == Int32(month - 1) else { return nil }
        // As Foundation's Gregorian calendar adds them up for GRDB: whole seconds since 2001, then
        // the nanoseconds, so that both give the same `Date` to the last bit.
        return Date(timeIntervalSinceReferenceDate: Double(Int64(seconds) - 978_307_200) + Double(millisecond * 1_000_000) / 1_000_000_000)
    }
}
