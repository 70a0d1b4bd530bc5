import Foundation
import GRDB

/// One delivery, as the store's log keeps it.
public struct DeliveryLogEntry: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "delivery"

    /// Its date in GRDB's own text, written without GRDB's DateFormatter (`StoreDate`), whose
    /// first use of ICU cost each run half a millisecond.
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .custom { StoreDate.value($0) }
    }

    public var id: Int64?
    public var startedAt: Date
    /// `file`, `stdin`, `udp`, `http` or `poll`.
    public var source: String
    /// The file, peer or URL.
    public var origin: String?
    /// `newData`, `noData`, `failed`, `deferred` (nothing fetched, some items deferred), or what
    /// stopped it (`interrupted`, `tokenRejected`).
    public var result: String
    public var items: Int
    public var downloaded: Int
    public var failed: Int
    public var elapsedSeconds: Double
    public var note: String?

    package init(id: Int64? = nil, startedAt: Date, source: String, origin: String?, result: String, items: Int,
                 downloaded: Int, failed: Int, elapsedSeconds: Double, note: String?) {
        self.id = id
        self.startedAt = startedAt
        self.source = source
        self.origin = origin
        self.result = result
        self.items = items
        self.downloaded = downloaded
        self.failed = failed
        self.elapsedSeconds = elapsedSeconds
        self.note = note
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
