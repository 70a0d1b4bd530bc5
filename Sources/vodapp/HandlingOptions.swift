import ArgumentParser
import CommandSupport
import Foundation
import Logging
import SystemPackage
import VODAppBase
import VODAppDelivery
import VODAppDeliveryPolicy
import VODAppMediaDirectory
import VODAppNotify
import VODAppPayload
import VODAppStreams
import VODAppTransfer
import VODAppTransferPolicy

/// The options that say how a payload is handled, shared by `handle` and `listen`.
struct HandlingOptions: ParsableArguments {
    @OptionGroup var directory: MediaDirectoryOption

    // .unconditional: "--budget -1" reaches validate(), which says what is wrong with it, instead
    // of being read as a missing value followed by an option "-1".
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Wall-clock budget of a delivery, from its arrival to its report, in seconds. Default: \(Int(DeliveryOptions.defaultBudgetSeconds)).",
                               valueName: "seconds"),
            transform: OptionValue.seconds(atMost: 86_400))
    var budget: Duration?

    @Option(parsing: .unconditional, help: ArgumentHelp("Drop items strictly larger than this: bytes, or K/M/G for KiB/MiB/GiB (KB/MB/GB: powers of 1000). Default: 20M.", valueName: "size"),
            transform: OptionValue.byteCount)
    var maxSize: Int64?

    @Option(parsing: .unconditional, help: ArgumentHelp("Most transfers at once.", valueName: "n"))
    var jobs: Int = TransferEngine.Configuration.defaultJobs

    @Option(help: ArgumentHelp("How files are named: title gives 'Title [key].ext', key gives 'key.ext'.", valueName: "style"))
    var name: MediaFileName.Style = .title

    @Flag(help: "Do not raise a desktop notification.")
    var noNotify = false

    @Flag(help: "Share the link among all transfers to the end, even when that leaves every item unfinished at the deadline.")
    var allAtOnce = false

    @Option(name: .customLong("cacert"),
            help: ArgumentHelp("Trust the certificates in this PEM file for https instead of the system's (a self-signed media server).",
                               valueName: "file"),
            completion: .file())
    var certificateAuthorities: String?

    @Option(name: .customLong("header"),
            help: ArgumentHelp("A header for each item's own origin, 'Name: value' (repeatable). Never sent across a redirect to another host, never logged.",
                               valueName: "header"))
    var headers: [String] = []

    @Option(name: .customLong("header-host"),
            help: ArgumentHelp("Send --header only to this origin, [http://|https://]HOST[:PORT] (repeatable; https and its default port unless given; '.example.com' is it and its subdomains). Required by listen, whose pushes name their own hosts.",
                               valueName: "origin"))
    var headerHosts: [String] = []

    @Option(help: ArgumentHelp("A cookie file in the Netscape format (curl's, or a browser exporter's); its cookies go to each item's own origin only.",
                               valueName: "file"),
            completion: .file())
    var cookies: String?

    @Option(help: ArgumentHelp("The User-Agent of media requests.", valueName: "string"))
    var userAgent: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("After each delivery, remove vodapp's files older than this many days (by when vodapp wrote them; 0 keeps only those of this delivery and of deliveries still running).",
                               valueName: "n"),
            transform: OptionValue.wholeNumber(of: "days", in: 0...36_500))
    var keepDays: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("After each delivery, remove vodapp's oldest files until they take at most this much: bytes, or K/M/G. An item larger on its own is too large.", valueName: "size"),
            transform: OptionValue.byteCount)
    var maxTotal: Int64?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("After each delivery, remove vodapp's oldest files until DIR's file system has this much free: bytes, or K/M/G.",
                               valueName: "size"),
            transform: OptionValue.byteCount)
    var minFree: Int64?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The most the delivery receives per second, all its transfers together (a listener's deliveries at once share it): bytes, or K/M/G, at least 1K.",
                               valueName: "size"),
            transform: OptionValue.byteCount)
    var limitRate: Int64?

    @Option(help: ArgumentHelp("For a stream (HLS or DASH) with audio in several languages: the languages wanted, in order of preference, comma-separated (en,de). Default: the stream's default audio (DEFAULT=YES, or the main role), else $LANG's.",
                               valueName: "langs"),
            transform: LanguageList.parse)
    var audioLang: LanguageList?

    @Option(help: ArgumentHelp("For a stream (HLS or DASH) with WebVTT subtitles: the languages wanted, comma-separated (en,de), or all, or none (the default). Each is written beside the file as NAME.LANG.vtt, which mpv and VLC load with it.",
                               valueName: "langs|all|none"),
            transform: SubtitleOption.parse)
    var subtitles: SubtitleSelection?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("For a stream (HLS or DASH) of several qualities: the tallest picture wanted, in lines (720 for 1280x720); when every one is taller, the shortest.",
                               valueName: "n"),
            transform: OptionValue.wholeNumber(of: "lines", in: 1...100_000))
    var maxHeight: Int?

    @Flag(help: "Fetch items again whose files you removed by hand; without it they are reported as removed. (What vodapp removed, for retention or --sync, a push naming it fetches again.)")
    var refetchRemoved = false

    @Flag(help: "The push is the desired set: once all its items are in DIR, vodapp's files it does not name are removed, and the playlist is exactly the push, in its order.")
    var sync = false

    @Option(help: ArgumentHelp("What DIR/playlist.m3u8 lists: every item in DIR, or only the latest push's, in its order. Default: all (latest with --sync).",
                               valueName: "latest|all"))
    var playlist: PlaylistScope?

    @Flag(help: "Say what would be fetched, resumed, skipped and removed, and why; request nothing, write nothing. Exit 65 when an item is invalid, else 0.")
    var dryRun = false

    @Option(help: ArgumentHelp("On a metered connection (as NetworkManager says): fetch, or defer the items to a later delivery (exit 75).",
                               valueName: "fetch|defer"))
    var onMetered: DeferralPolicy.Choice = .defer

    @Option(help: ArgumentHelp("In power-saver mode (as power-profiles-daemon says): fetch, or defer the items to a later delivery (exit 75).",
                               valueName: "fetch|defer"))
    var onPowerSaver: DeferralPolicy.Choice = .defer

    @Flag(name: .shortAndLong, help: "Only errors on stderr, and no progress display.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Debug logging: every transfer's start, retries and end on stderr.")
    var verbose = false

    @Option(help: ArgumentHelp("What goes to stderr, with swift-log's levels: trace, debug, info, notice, warning, error or critical. Wins over -q and -v.",
                               valueName: "level"))
    var logLevel: Logger.Level?

    func validate() throws {
        guard jobs >= 1 && jobs <= 256 else {
            throw ValidationError("--jobs must be between 1 and 256, not \(jobs)")
        }
        if let certificateAuthorities {
            try Self.requireReadableFile(certificateAuthorities, for: "--cacert")
            try Self.requireCertificates(certificateAuthorities, for: "--cacert")
        }
        for header in headers {
            if let problem = RequestHeader.problem(with: header) {
                // The value is never shown (it may be a token), only which header this is.
                let which = header.contains(":") ? "--header '\(RequestHeader.shownName(of: header))'" : "a --header without a colon"
                throw ValidationError("\(which): \(problem)")
            }
        }
        if !headerHosts.isEmpty, headers.isEmpty {
            throw ValidationError("--header-host limits --header, and there is none")
        }
        for host in headerHosts where HeaderScope(host) == nil {
            throw ValidationError("--header-host must be [http://|https://]HOST[:PORT], HOST a name, an address or .domain for it and its subdomains, not '\(host)'")
        }
        if let cookies {
            try Self.requireReadableFile(cookies, for: "--cookies")
            // libcurl skips lines it cannot read without a word: a file of none (a JSON export,
            // a browser's database) would send no cookie and say nothing.
            guard let text = FileManager.default.contents(atPath: cookies).map({ String(decoding: $0, as: UTF8.self) }),
                  text.split(whereSeparator: \.isNewline).contains(where: Self.isNetscapeCookie) else {
                throw ValidationError("--cookies \(cookies): no cookie in the Netscape format (seven tab-separated fields: domain, subdomains, path, secure, expiry, name, value)")
            }
        }
        if let userAgent, userAgent.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) {
            throw ValidationError("--user-agent must be one line of printable text")
        }
        if let limitRate, limitRate < 1024 {
            throw ValidationError("--limit-rate must be at least 1K (1024 bytes a second), not \(limitRate)")
        }
        guard !(quiet && verbose) else {
            throw ValidationError("--quiet and --verbose cannot be used together")
        }
    }

    /// Delivers `payload` as a one-shot command (`handle`, `poll`) does, prints the report on
    /// stdout, and returns the exit status. Progress goes to a terminal only (never into a pipe,
    /// a file or a webhook's answer). The run ends when its work is done: its notification links
    /// to DIR rather than offering an action only a process that stays could answer.
    func deliverOnce(_ payload: Payload, from source: DeliverySource, json: Bool, signals: SignalTrap,
                     logger: Logger) async throws -> Int32 {
        let options = deliveryOptions
        if dryRun {
            let preview = try Delivery(options: options, logger: logger, attention: .logged(to: logger)).preview(payload)
            print(json ? preview.json : PreviewRenderer.summary(preview))
            fflush(nil)
            return preview.hasInvalidItems ? ExitStatus.invalidPayload.rawValue : ExitStatus.success.rawValue
        }
        let notifier = LibNotifyNotifier()
        let progress = quiet ? nil : ProgressDisplay.forStandardError()
        let report = try await Delivery(options: options, notifier: notifier, logger: logger, attention: .logged(to: logger),
                                        progress: progress)
            .run(payload, from: source, started: ProcessClock.launch, stop: signals.stop)
        print(json ? report.json : ReportRenderer.summary(report))
        fflush(nil)
        return signals.exitCode ?? ExitStatus(report).rawValue
    }

    /// Refuses a file option naming anything but a regular file this process can read: libcurl
    /// would wait on a FIFO or a device past the budget, and skip a file it cannot read without
    /// a word.
    static func requireReadableFile(_ path: String, for option: String) throws {
        let info: Stat
        do {
            info = try Stat(FilePath(path))
        } catch {
            throw ValidationError("\(option) \(path): \(error)")
        }
        guard info.type == .regular else { throw ValidationError("\(option) \(path): not a regular file") }
        guard access(path, R_OK) == 0 else {
            throw ValidationError("\(option) \(path): \(Errno(rawValue: errno).description)")
        }
    }

    /// A file of PEM certificates, or the error that says what it is not.
    static func requireCertificates(_ path: String, for option: String) throws {
        if let problem = CertificateFile.problem(at: path) { throw ValidationError("\(option) \(path): \(problem)") }
    }

    /// A line of a Netscape cookie file that holds a cookie (`#HttpOnly_` lines do; comments do not).
    static func isNetscapeCookie(_ line: Substring) -> Bool {
        let cookie = line.hasPrefix("#HttpOnly_") ? line.dropFirst("#HttpOnly_".count) : line
        return !cookie.hasPrefix("#") && cookie.split(separator: "\t", omittingEmptySubsequences: false).count == 7
    }

    var deliveryOptions: DeliveryOptions {
        var options = DeliveryOptions(
            directory: directory.path,
            budget: budget ?? DeliveryOptions.defaultBudget,
            // An item larger than --max-total could never be kept: it is too large, not fetched
            // and then left over the limit (the new-user trial's 14 MiB item under --max-total 8M).
            maximumSize: min(maxSize ?? DeliveryOptions.defaultMaximumSize, maxTotal ?? .max),
            jobs: jobs,
            notify: !noNotify,
            budgetAware: !allAtOnce,
            certificateAuthorities: certificateAuthorities,
            naming: name
        )
        options.headers = headers
        options.headerHosts = headerHosts.compactMap(HeaderScope.init)
        // libcurl's cookie engine wants an absolute path: a relative one would be read from
        // wherever the process happens to be.
        options.cookieFile = cookies.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if let userAgent { options.userAgent = userAgent }
        options.rateLimit = limitRate
        options.audioLanguages = audioLang?.tags ?? []
        options.subtitles = subtitles ?? .none
        options.maximumHeight = maxHeight
        options.deferral = DeferralPolicy(onMetered: onMetered, onPowerSaver: onPowerSaver)
        options.retention = RetentionPolicy(keepDays: keepDays, maximumTotal: maxTotal, minimumFree: minFree, refetchRemoved: refetchRemoved)
        options.sync = sync
        options.playlist = playlist
        return options
    }
}

extension MediaFileName.Style: ExpressibleByArgument {}
extension DeferralPolicy.Choice: ExpressibleByArgument {}
extension PlaylistScope: ExpressibleByArgument {}

extension Logger.Level: @retroactive ExpressibleByArgument {}
