import VODAppHLS
import VODAppMediaDirectory
import VODAppStreams

/// What happened to one playlist item, as the report shows it.
public struct ItemReport: Sendable, Equatable, Encodable {
    public enum Status: String, Sendable, Encodable, CaseIterable {
        case downloaded, alreadyPresent, tooLarge, timedOut, failed, invalid
        /// Its file was in DIR and was removed, by retention or by the user: not fetched again
        /// unless `--refetch-removed`, or after `vodapp forget KEY`.
        case removed
        /// Not fetched: the connection is metered or power saver is on (`--on-metered`,
        /// `--on-power-saver`); the next delivery on a better connection fetches it.
        case deferred
    }

    public let key: String
    public let title: String?
    public let url: String?
    public let status: Status
    /// The file's size, for `downloaded` and `alreadyPresent`.
    public internal(set) var bytes: Int64?
    /// The file, for `downloaded` and `alreadyPresent`.
    public internal(set) var path: String?
    /// The final response's status code, when a response came.
    public let httpStatus: Int?
    /// Why the item is not in DIR, for every other status.
    public internal(set) var error: String?
    /// For `failed` and `timedOut`: true when delivering again cannot fix it (a 404, a
    /// certificate that does not verify, a DASH manifest), false when a later delivery may
    /// succeed (a 503, a reset, a login page, the budget).
    public let final: Bool?
    /// For a stream that offered a choice (an HLS master playlist): the variant and audio chosen.
    public var variant: StreamChoice?
    /// For a stream fetched with `--subtitles`: each subtitle placed beside the file, or why not.
    public var subtitles: [SubtitleReport]?
    /// For `downloaded`: what the file was as this delivery placed it, for the store (not in the
    /// report).
    package var placed: MediaDirectory.PlacedIdentity?

    private enum CodingKeys: String, CodingKey {
        case key, title, url, status, bytes, path, httpStatus, error, final, variant, subtitles
    }

    /// Whether it failed for want of disk space that removing files could give: under
    /// `--min-free` (not started, or refused from its length), or a declared length the disk
    /// could hold but had no room for. `--sync` makes room with what the push does not name.
    public var lackedRoom: Bool {
        guard status == .failed, final != true, let error else { return false }
        return Self.roomRefusals.contains { error.contains($0) }
    }

    /// What the refusals for want of room say (`Delivery.plan`, `TransferEngine`), and only they.
    static let roomRefusals = ["--min-free", "do not fit on the disk"]

    /// Reports are equal when what they say is: `placed` is the store's, not the report's.
    public static func == (lhs: ItemReport, rhs: ItemReport) -> Bool {
        lhs.key == rhs.key && lhs.title == rhs.title && lhs.url == rhs.url && lhs.status == rhs.status && lhs.bytes == rhs.bytes
            && lhs.path == rhs.path && lhs.httpStatus == rhs.httpStatus && lhs.error == rhs.error && lhs.final == rhs.final
            && lhs.variant == rhs.variant && lhs.subtitles == rhs.subtitles
    }

    public init(
        key: String, title: String?, url: String?, status: Status,
        bytes: Int64? = nil, path: String? = nil, httpStatus: Int? = nil, error: String? = nil, final: Bool? = nil
    ) {
        self.key = key
        self.title = title
        self.url = url
        self.status = status
        self.bytes = bytes
        self.path = path
        self.httpStatus = httpStatus
        self.error = error
        self.final = final ?? ((status == .failed || status == .timedOut) ? false : nil)
    }

    /// The same report with `note` after its error (every cut item has one).
    package func noting(_ note: String) -> ItemReport {
        var noted = ItemReport(key: key, title: title, url: url, status: status, bytes: bytes, path: path, httpStatus: httpStatus,
                               error: (error ?? "") + note, final: final)
        noted.placed = placed
        noted.variant = variant
        noted.subtitles = subtitles
        return noted
    }
}
