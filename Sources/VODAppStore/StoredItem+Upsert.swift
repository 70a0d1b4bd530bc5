import GRDB

/// How an item's record is written: one statement, prepared once per connection.
///
/// GRDB's record `save` encodes each row through `Codable`, then runs an UPDATE and, for a new
/// key, an INSERT, each checked by its statement authorizer: a tenth of a millisecond a row in a
/// release build, which a delivery of 6,000 items spent after its deadline, past its budget.
/// The values are the ones `save` writes (dates in GRDB's own text format, the state's raw value).
extension StoredItem {
    private static let columns = ["key", "title", "url", "state", "path", "bytes", "etag", "lastModified", "error", "attempts",
                                  "nextAttemptAt", "final", "total", "fileID", "fingerprint", "vouched",
                                  "variantCeiling", "variantCeilingLimit", "subtitles", "subtitle", "unendedStarts", "removedByVodapp", "namedAt", "updatedAt"]

    private static let upsertSQL = """
        INSERT INTO item (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))
        ON CONFLICT(key) DO UPDATE SET \(columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """

    /// Writes the record, whether its key is new or not.
    func upsert(_ db: Database) throws {
        let arguments: StatementArguments = [key, title, url, state.rawValue, path, bytes, etag, lastModified, error, attempts,
                                             nextAttemptAt, final, total, fileID, fingerprint, vouched,
                                             variantCeiling, variantCeilingLimit, subtitles, subtitle, unendedStarts, removedByVodapp, namedAt, updatedAt]
        try db.cachedStatement(sql: Self.upsertSQL).execute(arguments: arguments)
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
