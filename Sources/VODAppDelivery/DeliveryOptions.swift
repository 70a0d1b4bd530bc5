import Foundation
import VODAppDeliveryPolicy
import VODAppMediaDirectory
import VODAppStreams
import VODAppTransfer
import VODAppTransferPolicy

/// How a payload is handled: where media goes and within what limits.
public struct DeliveryOptions: Sendable, Equatable {
    /// The default `--max-size`: 20 MiB, the original app's limit.
    public static let defaultMaximumSize: Int64 = 20 * 1024 * 1024
    /// The default `--budget`: what iOS gives a background wake-up.
    public static let defaultBudgetSeconds: Double = 30
    public static let defaultBudget: Duration = .seconds(defaultBudgetSeconds)

    /// Absolute, normalised path of the media directory.
    public let directory: String
    public var budget: Duration
    /// Items strictly larger are dropped.
    public var maximumSize: Int64
    public var jobs: Int
    public var notify: Bool
    /// When the link is too slow for the budget, finish the items that can finish, smallest
    /// remaining first; false starts everything and shares the link to the end.
    public var budgetAware: Bool
    /// Certificates to trust for https instead of the system's (`--cacert`): how a self-signed
    /// media server is reached without turning verification off.
    public var certificateAuthorities: String?
    /// How fetched files are named (`--name`).
    public var naming: MediaFileName.Style
    /// Header lines (`Name: value`) for each item's own origin (`--header`).
    public var headers: [String] = []
    /// A Netscape cookie file for each item's own origin (`--cookies`).
    public var cookieFile: String?
    /// Where `headers` may go (`--header-host`); empty for each item's own origin.
    public var headerHosts: [HeaderScope] = []
    /// The User-Agent of every media request (`--user-agent`), `defaultUserAgent` unless set.
    public var userAgent: String {
        get { chosenUserAgent ?? Self.defaultUserAgent }
        set { chosenUserAgent = newValue == Self.defaultUserAgent ? nil : newValue }
    }
    /// Kept apart so that options made and compared never read `defaultUserAgent`, which loads
    /// libcurl to name its version: a payload refused as invalid fetches nothing, and loads none.
    private var chosenUserAgent: String?
    public static let defaultUserAgent = "vodapp/0.1 libcurl/\(Curl.version)"
    /// The most bytes per second the whole delivery receives (`--limit-rate`); nil for no limit.
    public var rateLimit: Int64?
    /// A stream's audio languages, in order of preference (`--audio-lang`): the first a master
    /// playlist's renditions have is fetched; none, its DEFAULT=YES one.
    public var audioLanguages: [String] = []
    /// A stream's WebVTT subtitles to place beside its file (`--subtitles`).
    public var subtitles: SubtitleSelection = .none
    /// A stream's tallest picture (`--max-height`), if capped.
    public var maximumHeight: Int?
    /// Whether a metered connection or power saver defers the items (`--on-metered`,
    /// `--on-power-saver`).
    public var deferral = DeferralPolicy()
    /// What is kept of vodapp's files, and whether removed items come back.
    public var retention = RetentionPolicy()
    /// `--sync`: the latest push is the desired set. Once every item of it is in DIR (or can never
    /// be: too large, a failure for good, removed by the user), vodapp's files it does not name
    /// are removed (`Delivery.sync`), and the playlist lists exactly it.
    public var sync = false
    /// `--playlist`: nil for the default, `latest` with `--sync` and `all` without.
    public var playlist: PlaylistScope?
    /// What the playlist lists, under these options.
    public var playlistScope: PlaylistScope { playlist ?? (sync ? .latest : .all) }
    /// Whether the notification may offer "Open folder" as an action, and so keep a thread
    /// waiting for the click until the budget ends: for a listener, which stays. A one-shot run
    /// links to DIR in the notification's body instead (`DesktopNotification.folderAction`).
    public var offersOpenFolder = false
    /// Whether the push comes from a source that vouches for it (a payload file or stdin,
    /// `poll`, a signed push). A delivery of one that does not (a UDP datagram, an unsigned HTTP
    /// push, an MQTT message without a secret) records its items as not vouched for, and its
    /// retention removes only items no vouched-for push named: a push anyone can send may not
    /// make room by removing the user's media (seventh attacker trial, F6).
    public var vouched = true

    public init(
        directory: String,
        budget: Duration = Self.defaultBudget,
        maximumSize: Int64 = Self.defaultMaximumSize,
        jobs: Int = TransferEngine.Configuration.defaultJobs,
        notify: Bool = true,
        budgetAware: Bool = true,
        certificateAuthorities: String? = nil,
        naming: MediaFileName.Style = .title
    ) {
        self.directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        self.budget = budget
        self.maximumSize = maximumSize
        self.jobs = jobs
        self.notify = notify
        self.budgetAware = budgetAware
        self.certificateAuthorities = certificateAuthorities
        self.naming = naming
    }

    /// Creates DIR (and its hidden work area) if needed, so that a long-running receiver can
    /// refuse to start on an unusable DIR rather than fail every delivery later.
    public func prepareDirectory() throws(MediaDirectoryError) {
        try MediaDirectory(path: directory).prepare()
    }

    /// The contract's default directory: `$VODAPP_DIR`, else the XDG videos folder + `/VODApp`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["VODAPP_DIR"], !dir.isEmpty { return dir }
        return XDGUserDirectories(environment: environment).videos + "/VODApp"
    }
}
