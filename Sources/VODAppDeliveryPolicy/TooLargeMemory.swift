import Foundation
import VODAppStore

/// What the store remembers of an item dropped as too large spares the next push a request: a
/// pure function of the record, the URL the push names, the size limit and the time.
///
/// - An item of no declared length that passed the limit as it arrived cost the whole limit to
///   find out (20 MiB by default, on every push and poll): it is not asked again while the limit
///   is no larger than the bytes it already sent.
/// - One whose server declared its length cost only headers, but a box pushed to every few
///   minutes asked for them each time: it is not asked again for `recheckAfter` from the answer
///   (the record keeps its size, ETag and Last-Modified), unless the URL changes or the limit
///   rises to its size. After that it is asked once more, in case the file changed.
public enum TooLargeMemory {
    /// How long a declared size stands before it is asked again.
    public static let recheckAfter: TimeInterval = 24 * 3600

    /// The report's reason when `record` settles the item without a request; nil when the item
    /// must be asked for.
    public static func settles(_ record: StoredItem?, url: String?, limit: Int64, now: Date) -> String? {
        guard let record, record.state == .tooLarge, let url, record.url == url else { return nil }
        if let declared = record.total {
            let until = record.updatedAt.addingTimeInterval(recheckAfter)
            guard declared > limit, now < until else { return nil }
            return "larger than the \(limit)-byte limit: it declared \(declared) bytes when last asked, at "
                + "\(timestamp(record.updatedAt)); not asked again before \(timestamp(until)) unless --max-size is above that"
        }
        guard let seen = record.bytes, seen > limit else { return nil }
        return "larger than the \(limit)-byte limit: it sent \(seen) bytes with no declared length when last offered; "
            + "not fetched again unless --max-size is above that"
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
