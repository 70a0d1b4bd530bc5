import Foundation
import GRDB

/// One delivery, as the store's log keeps it.
public struct DeliveryLogEntry: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "delivery"

    public var id: Int64?
    public var startedAt: Date
    /// `file`, `stdin`, `udp`, `http` or `poll`.
    public var source: String
    /// The file, peer or URL.
    public var origin: String?
    /// `newData`, `noData`, `failed`, or what stopped it (`interrupted`, `tokenRejected`).
    public var result: String
    public var items: Int
    public var downloaded: Int
    public var failed: Int
    public var elapsedSeconds: Double
    public var note: String?

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
