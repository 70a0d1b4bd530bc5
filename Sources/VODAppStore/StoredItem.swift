import Foundation
import GRDB

/// What the store knows of one playlist key in DIR.
public struct StoredItem: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public enum State: String, Codable, Sendable, CaseIterable {
        /// The file is in DIR.
        case fetched
        /// Part of the body is kept out of sight, with validators to resume it.
        case partial
        /// The last attempt failed; `nextAttemptAt` says when another is worth it, unless the
        /// failure is `final`.
        case failed
        /// Larger than the limit when last seen.
        case tooLarge
        /// Its file was in DIR and is gone: removed by retention or by the user. `error` says
        /// which and why, `updatedAt` when it was noticed; `path` and `bytes` are the file's.
        /// Pushes naming it do not fetch it again until it is forgotten.
        case removed
        /// Never fetched: the deliveries that named it deferred it (a metered connection, power
        /// saver). `error` says why.
        case deferred
    }

    public static let databaseTableName = "item"

    public var key: String
    public var title: String?
    public var url: String
    public var state: State
    /// The file, for `fetched` (and `removed`: the file that was).
    public var path: String?
    /// The file's size when fetched; the bytes kept when partial.
    public var bytes: Int64?
    public var etag: String?
    public var lastModified: String?
    public var error: String?
    /// Failed attempts since the last success.
    public var attempts: Int
    public var nextAttemptAt: Date?
    /// The last failure was one delivering again cannot fix (a 404, a certificate that does not
    /// verify, a live stream): there is no next attempt to wait for.
    public var final: Bool = false
    /// For a partial: the whole file's size as the server gave it, so that a resume answering
    /// with another size is known for another version.
    public var total: Int64? = nil
    /// For `fetched`: the placed file's device and inode (`dev:ino`), so that a file moved to its
    /// name later is told from it whatever its times and size.
    public var fileID: String? = nil
    /// For `fetched`: the fingerprint of every byte of the placed file (`FileFingerprint`: keyed
    /// `k1:`, or a SHA-256 from before the key), so that a file written over in place (same
    /// inode) is told from it whatever its times and size.
    public var fingerprint: String? = nil
    /// Whether a source that vouches for its pushes named the item (a payload file or stdin,
    /// `poll`, a signed push), not only pushes anyone could send (a UDP datagram, an unsigned
    /// HTTP push, an MQTT message without a secret). Retention removes what only those brought
    /// first, and a delivery of theirs removes nothing else. Records older than the column are
    /// not known to be vouched for, so retention treats them as it always did.
    public var vouched: Bool = true
    /// For a stream: the BANDWIDTH (bits per second) from which its variants passed the size
    /// limit as they arrived, and that limit (bytes): a later delivery under the same limit or a
    /// lower one does not fetch them again. Nil when none did.
    public var variantCeiling: Int? = nil
    public var variantCeilingLimit: Int64? = nil
    /// For `fetched`: the subtitle files placed beside it (`PlacedSubtitle`, as JSON), which
    /// retention removes with it.
    public var subtitles: String? = nil
    /// The payload's subtitle for the item, so that a listener's retry of it, which no payload
    /// brings, lists it in the playlist as its push would have.
    public var subtitle: String? = nil
    /// Deliveries that took the item and never recorded how it ended: the process died (a crash,
    /// SIGKILL, a power cut). From `RetrySchedule.crashesTolerated` on, a listener no longer tries
    /// it on its own, so that an item that kills the process cannot make a loop of restarts.
    public var unendedStarts: Int = 0
    /// For `removed`: vodapp removed the file (retention, `--sync`), not the user, so a push
    /// naming the item again fetches it again; what the user removed stays removed.
    public var removedByVodapp: Bool = false
    /// When a push last named the item (nil: not since the column came): a record that holds no
    /// file and that no push has named for `StateStore.forgetAfter` is forgotten.
    public var namedAt: Date? = nil
    public var updatedAt: Date

    /// The subtitle files placed beside the file.
    public var placedSubtitles: [PlacedSubtitle] {
        get { PlacedSubtitle.decode(subtitles) }
        set { subtitles = PlacedSubtitle.encode(newValue) }
    }

    package init(key: String, title: String?, url: String, state: State, path: String? = nil, bytes: Int64? = nil,
                 etag: String? = nil, lastModified: String? = nil, error: String? = nil, attempts: Int,
                 nextAttemptAt: Date? = nil, final: Bool = false, total: Int64? = nil, fileID: String? = nil, fingerprint: String? = nil,
                 vouched: Bool = true, variantCeiling: Int? = nil, variantCeilingLimit: Int64? = nil, updatedAt: Date) {
        self.key = key
        // SQLite's text ends at a NUL (GRDB binds a C string): a title the payload escaped one into
        // would be kept cut short. Only that character changes; the report has the title as sent.
        self.title = title.map { $0.contains("\0") ? $0.replacingOccurrences(of: "\0", with: "\u{FFFD}") : $0 }
        self.url = url
        self.state = state
        self.path = path
        self.bytes = bytes
        self.etag = etag
        self.lastModified = lastModified
        self.error = error
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.final = final
        self.total = total
        self.fileID = fileID
        self.fingerprint = fingerprint
        self.vouched = vouched
        self.variantCeiling = variantCeiling
        self.variantCeilingLimit = variantCeilingLimit
        self.updatedAt = updatedAt
    }
}
