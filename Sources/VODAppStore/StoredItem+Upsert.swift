import GRDB

/// How an item's record is written: one statement, prepared once per connection.
///
/// GRDB's record `save` encodes each row through `Codable`, then runs an UPDATE and, for a new
/// key, an INSERT, each checked by its statement authorizer: a tenth of a millisecond a row in a
/// release build, which a delivery of 6,000 items spent after its deadline, past its budget.
/// The values are the ones `save` writes (dates in GRDB's own text format, `StoreDate`; the state's
/// raw value).
extension StoredItem {
    private static let columns = ["key", "title", "url", "state", "path", "bytes", "etag", "lastModified", "error", "attempts",
                                  "nextAttemptAt", "final", "total", "fileID", "fingerprint", "vouched",
                                  "variantCeiling", "variantCeilingLimit", "subtitles", "subtitle", "unendedStarts", "removedByVodapp", "namedAt", "updatedAt"]

    private static let values = "INSERT INTO item (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"

    /// When a push last named the item is the push's to say: a record of how a transfer ended
    /// (which carries none) keeps it.
    private static let upsertSQL = values + """
         ON CONFLICT(key) DO UPDATE SET \(columns.dropFirst().map { $0 == "namedAt" ? "namedAt = COALESCE(excluded.namedAt, item.namedAt)" : "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """

    /// A new key's record as given; a known key's start counted, and nothing else changed.
    private static let startSQL = values + " ON CONFLICT(key) DO UPDATE SET unendedStarts = item.unendedStarts + 1"

    /// Writes the record, whether its key is new or not.
    func upsert(_ db: Database) throws {
        try db.cachedStatement(sql: Self.upsertSQL).execute(arguments: arguments)
    }

    /// Writes the record of a delivery taking the item: as it is for a new key; for a known one,
    /// only its start is counted (`StateStore.markStarted`).
    func insertStarted(_ db: Database) throws {
        try db.cachedStatement(sql: Self.startSQL).execute(arguments: arguments)
    }

    private var arguments: StatementArguments {
        [key, title, url, state.rawValue, path, bytes, etag, lastModified, error, attempts,
         StoreDate.value(nextAttemptAt), final, total, fileID, fingerprint, vouched,
         variantCeiling, variantCeilingLimit, subtitles, subtitle, unendedStarts, removedByVodapp, StoreDate.value(namedAt),
         StoreDate.value(updatedAt)]
    }

    /// The state, attempts and bytes recorded for `key`, if any: what counting the next attempt needs.
    static func attemptsRecorded(for key: String, in db: Database) throws -> RetryBackoff.Earlier? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT state, attempts, bytes, unendedStarts FROM item WHERE key = ?"),
                                         arguments: [key]) else {
            return nil
        }
        return RetryBackoff.Earlier(state: State(rawValue: row["state"] ?? ""), attempts: row["attempts"] ?? 0, bytes: row["bytes"],
                                    unendedStarts: row["unendedStarts"] ?? 0)
    }
}
