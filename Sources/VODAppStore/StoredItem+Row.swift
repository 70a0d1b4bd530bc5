import Foundation
import GRDB

/// How an item's record is read: column by column, the columns `StoredItem+Upsert` writes.
///
/// GRDB reads a `Codable` record through a decoder that looks each property up by key and asks
/// the runtime for its type's conformances: 0.09 ms a row in a release build, most of what reading
/// ten records cost a delivery whose items were all present.
extension StoredItem {
    public init(row: Row) throws {
        func required<Value: DatabaseValueConvertible>(_ column: String) throws -> Value {
            guard let value: Value = row[column] else {
                throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "item.\(column) is missing or not a \(Value.self)")
            }
            return value
        }
        let stateName: String = try required("state")
        guard let state = State(rawValue: stateName) else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "item.state '\(stateName)' is no state vodapp knows")
        }
        key = try required("key")
        title = row["title"]
        url = try required("url")
        self.state = state
        path = row["path"]
        bytes = row["bytes"]
        etag = row["etag"]
        lastModified = row["lastModified"]
        error = row["error"]
        attempts = try required("attempts")
        nextAttemptAt = row["nextAttemptAt"]
        final = row["final"] ?? false
        total = row["total"]
        fileID = row["fileID"]
        fingerprint = row["fingerprint"]
        vouched = row["vouched"] ?? true
        variantCeiling = row["variantCeiling"]
        variantCeilingLimit = row["variantCeilingLimit"]
        subtitles = row["subtitles"]
        subtitle = row["subtitle"]
        unendedStarts = row["unendedStarts"] ?? 0
        removedByVodapp = row["removedByVodapp"] ?? false
        namedAt = row["namedAt"]
        updatedAt = try required("updatedAt")
    }
}
