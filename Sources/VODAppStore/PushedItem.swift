import GRDB

/// One item of the latest push, in its place: what `--playlist latest` lists and `--sync` keeps,
/// for deliveries that are not that push (a listener's retries) as for the push itself.
public struct PushedItem: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "latestPush"

    /// The item's place in the push, from 0.
    public var position: Int
    public var key: String
    public var title: String
    public var subtitle: String?
    /// Whether a source that vouches for its pushes sent the push (`StoredItem.vouched`): a push
    /// anyone could send does not take the place of one that is.
    public var vouched: Bool

    public init(position: Int, key: String, title: String, subtitle: String?, vouched: Bool) {
        self.position = position
        self.key = key
        self.title = title
        self.subtitle = subtitle
        self.vouched = vouched
    }
}
