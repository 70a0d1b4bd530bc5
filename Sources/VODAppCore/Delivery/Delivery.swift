import Foundation
import Logging
import NIOConcurrencyHelpers

/// Handles one payload from start to report: plan, fetch, place, record, notify.
///
/// Every entry point (a file, standard input, a UDP datagram, an HTTP POST, a poll) feeds payload
/// bytes into this same pipeline; nothing about how they arrived matters here but the log line.
public struct Delivery: Sendable {
    public let options: DeliveryOptions
    private let notifier: any Notifier
    private let logger: Logger
    private let progress: ProgressDisplay?

    /// - Parameter progress: a terminal to show the transfers on while they run.
    public init(options: DeliveryOptions, notifier: any Notifier = LibNotifyNotifier(), logger: Logger,
                progress: ProgressDisplay? = nil) {
        self.options = options
        self.notifier = notifier
        self.logger = logger
        self.progress = progress
    }

    /// Fetches the payload's valid items into DIR within the options' budget.
    ///
    /// An item whose file is in DIR is `alreadyPresent` and costs no request. Each missing item is
    /// fetched by whichever delivery takes its lock first, in this process or another; the others
    /// wait for it within their own budget. A transfer cut short keeps its bytes out of sight and
    /// the next delivery resumes it.
    /// - Parameters:
    ///   - payload: a validated payload.
    ///   - source: how it arrived, for the delivery log.
    ///   - started: when the run began (for a command, the process start), which is when the
    ///     budget starts counting, not when this is called.
    ///   - stop: cuts the run short (a signal): transfers stop, what can be resumed is kept and
    ///     recorded, and no notification is raised.
    /// - Throws: `DeliveryError` when DIR cannot be created or written. Item failures are not
    ///   errors: they are in the report.
    public func run(_ payload: Payload, from source: DeliverySource, started: ContinuousClock.Instant = .now,
                    stop: StopRequest? = nil) async throws(DeliveryError) -> DeliveryReport {
        let budget = Budget(start: started, duration: options.budget)
        let startedAt = Date(timeIntervalSinceNow: -budget.elapsed.inSeconds)
        // A listener's push may wait its turn in the queue, and its budget counts from its
        // arrival: an item the budget cut then says how much of it was gone before the start.
        let lateBy = budget.elapsed
        if lateBy >= Self.lateStart {
            logger.notice("the delivery began \(Self.seconds(lateBy)) into its \(Self.seconds(budget.duration)) budget")
        }
        let directory = MediaDirectory(path: options.directory)
        var reports: [String: ItemReport] = [:]
        var missing: [Target] = []

        // Checked before anything in it is used, on every path: a work area that is a link would
        // send partial bodies, locks and the store outside DIR.
        var hasWorkArea = try directory.checkWorkArea()
        let index = directory.index()
        for item in payload.items {
            guard case .valid(_, _, let url) = item.validity else {
                if case .invalid(let reason, let title, _) = item.validity {
                    reports[item.key] = ItemReport(key: item.key, title: title, url: item.urlString, status: .invalid, error: reason)
                }
                continue
            }
            let target = Target(item: item, url: url, temporary: directory.temporaryPath(key: item.key))
            if let found = index.file(for: item.key, urlExtension: url.fileExtension), let known = present(target, at: found, in: directory) {
                reports[item.key] = known
            } else {
                missing.append(target)
            }
        }

        if !missing.isEmpty {
            try directory.prepare()
            hasWorkArea = true
        }
        // A run with nothing to fetch records itself only where vodapp has worked before: it
        // creates nothing in a DIR it found without a work area. The store may not hold up the
        // transfers for more than a quarter of the budget: a busy store costs a warning.
        let early = min(budget.transferDeadline, .now + budget.duration / 4)
        let ledger = hasWorkArea ? DeliveryLedger(directory: directory.path, logger: logger, until: early) : nil
        let known = ledger?.items(missing.map(\.item.key), until: early) ?? [:]
        // One descriptor for every lock this delivery takes, however long the playlist.
        let locks = hasWorkArea ? try ItemLocks.open(in: directory) : nil
        defer { locks?.releaseAll() }

        var othersFetching: [Target] = []
        var locked: [Target] = []
        for target in missing {
            if locks?.take(target.item.key) == true {
                locked.append(target)
            } else {
                othersFetching.append(target)
            }
        }
        // Another delivery may have placed some between the look and the locks.
        let relooked = locked.isEmpty ? index : directory.index()
        var mine: [Target] = []
        for target in locked {
            if let found = relooked.file(for: target.item.key, urlExtension: target.url.fileExtension),
               let known = present(target, at: found, in: directory) {
                locks?.release(target.item.key)
                reports[target.item.key] = known
            } else {
                mine.append(target)
            }
        }

        // Items another delivery is fetching are waited for while this one fetches its own.
        async let waited = outcomes(ofOthersFetching: othersFetching, directory: directory, ledger: ledger, locks: locks,
                                    since: startedAt, until: budget.transferDeadline, stop: stop)
        if let locks, !mine.isEmpty {
            for (key, itemReport) in await fetch(mine, known: known, directory: directory, ledger: ledger, locks: locks,
                                                 budget: budget, stop: stop) {
                reports[key] = itemReport
            }
        }
        for itemReport in await waited {
            reports[itemReport.key] = itemReport
        }

        if lateBy >= Self.lateStart {
            for (key, itemReport) in reports where itemReport.status == .timedOut {
                reports[key] = itemReport.noting("; the delivery began \(Self.seconds(lateBy)) into its budget")
            }
        }
        let items = payload.items.compactMap { reports[$0.key] }
        if let locks {
            await updatePlaylist(of: directory, with: payload, reports: reports, locks: locks, until: budget.end)
        }
        let notification: NotificationReport
        if let reason = stop?.reason {
            notification = .notShown("stopped: \(reason)")
        } else {
            notification = await announce(items, budget: budget)
        }
        let report = DeliveryReport(elapsed: budget.elapsed, budget: budget.duration, directory: options.directory,
                                    items: items, notification: notification)
        ledger?.log(report, from: source, startedAt: startedAt, stoppedBecause: stop?.reason, until: budget.end)
        return report
    }

    /// Fetches the items this delivery holds the locks of. Each is placed, recorded and let go
    /// as soon as its body is whole and durable, while the others are still arriving: a small
    /// item is never hidden behind a large one, and a process killed mid-playlist keeps every
    /// file it finished.
    private func fetch(_ mine: [Target], known: [String: StoredItem], directory: MediaDirectory, ledger: DeliveryLedger?,
                       locks: ItemLocks, budget: Budget, stop: StopRequest?) async -> [String: ItemReport] {
        let targets = Dictionary(mine.map { ($0.item.key, $0) }, uniquingKeysWith: { first, _ in first })
        let requests = mine.map { request(for: $0, known: known[$0.item.key], directory: directory) }
        let jobs = OpenFileLimit.transfersThatFit(options.jobs)
        if jobs < options.jobs {
            logger.warning("the limit of \(OpenFileLimit.current) open files leaves room for \(jobs) transfer(s) at once, not \(options.jobs); raise it with ulimit -n")
        }
        let engine = TransferEngine(configuration: .init(jobs: jobs, userAgent: options.userAgent,
                                                       budgetAware: options.budgetAware,
                                                       certificateAuthorities: options.certificateAuthorities,
                                                       headers: options.headers, cookieFile: options.cookieFile,
                                                       headerHosts: options.headerHosts),
                                    logger: logger)
        let syncer = FileSyncer(width: jobs)
        let finished = NIOLockedValueBox<[String: ItemReport]>([:])
        // Runs on a syncer thread once the body is on disk.
        let finish: @Sendable (Target, TransferOutcome, String?) -> Void = { target, outcome, unsynced in
            let key = target.item.key
            var outcome = outcome
            if let unsynced {
                unlink(target.temporary)
                outcome = TransferOutcome(id: key, result: .failed(reason: "cannot write the file: \(unsynced)"),
                                          httpStatus: outcome.httpStatus, bodyBytesReceived: outcome.bodyBytesReceived)
            }
            let itemReport = report(for: outcome, target: target, directory: directory)
            // The new name is durable before the store says the file is there.
            if itemReport.status == .downloaded { directory.sync() }
            ledger?.record([DeliveryLedger.item(for: outcome, as: itemReport, known: known[key])], until: budget.end)
            finished.withLockedValue { $0[key] = itemReport }
            locks.release(key)
        }

        progress?.begin(titles: targets.mapValues { $0.item.title ?? $0.item.key }, budget: budget)
        var show: (@Sendable (TransferSnapshot) -> Void)?
        if let progress { show = { progress.update($0) } }
        // An HLS item is joined and placed as soon as its last segment is in, on a syncer thread,
        // not on the transfer thread, which serves every other transfer.
        // Joins an HLS item's parts (`cut` is nil when its last segment is in, or why the run
        // ended) and finishes the file as any other; another outcome is kept for the report.
        let joinedOtherwise = NIOLockedValueBox<[String: TransferOutcome]>([:])
        let join: @Sendable (HLSDownloads, Target, String?) -> Void = { hls, target, cut in
            let key = target.item.key
            let variant = hls.variant(of: key)
            // Nil when the other way in took it first.
            guard let joined = hls.finish(key, into: target.temporary, because: cut) else { return }
            logger.info("HLS", metadata: ["key": "\(key)", "variant": "\(variant ?? "the only one")",
                                          "result": "\(joined.result)"])
            if case .completed = joined.result {
                syncer.submit(target.temporary) { unsynced in finish(target, joined, unsynced) }
            } else {
                joinedOtherwise.withLockedValue { $0[key] = joined }
            }
        }
        let hls = HLSDownloads(workPath: directory.workPath, maximumSize: options.maximumSize,
                               itemURLs: targets.mapValues(\.url)) { hls, key in
            guard let target = targets[key] else { return }
            syncer.perform { join(hls, target, nil) }
        }
        let outcomes = await engine.run(
            requests, deadline: budget.transferDeadline, stop: stop,
            completed: { request, outcome in
                guard let target = targets[request.id], request.temporaryPath == target.temporary else {
                    // An HLS segment: durable before it is joined.
                    syncer.submit(request.temporaryPath)
                    return
                }
                syncer.submit(target.temporary) { unsynced in finish(target, outcome, unsynced) }
            },
            checkpoint: { id, partial in
                guard let target = targets[id], let ledger else { return }
                ledger.checkpoint(StoredItem(key: id, title: target.item.title, url: target.item.urlString ?? "", state: .partial,
                                             bytes: partial.bytes, etag: partial.etag, lastModified: partial.lastModified,
                                             attempts: 0, nextAttemptAt: Date(), total: partial.total, updatedAt: Date()),
                                  until: budget.end)
            },
            progress: show, followUp: hls)
        progress?.end()

        var byKey: [String: TransferOutcome] = Dictionary(outcomes.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for target in mine {
            guard let outcome = byKey[target.item.key], case .captured = outcome.result else { continue }
            join(hls, target, stop?.reason ?? "the budget ran out")
        }
        syncer.wait()
        for (key, joined) in joinedOtherwise.withLockedValue({ $0 }) { byKey[key] = joined }

        // What did not complete is recorded in one transaction, before its locks go, so that a
        // delivery waiting for one of these items finds how it ended.
        var reports = finished.withLockedValue { $0 }
        var records: [StoredItem] = []
        for target in mine where reports[target.item.key] == nil {
            let key = target.item.key
            // The engine answers for every request; should it ever not, the item still gets a
            // report, and its lock is still released.
            let outcome = byKey[key] ?? TransferOutcome(id: key, result: .failed(reason: "the transfer ended without an outcome"))
            let itemReport = report(for: outcome, target: target, directory: directory)
            reports[key] = itemReport
            records.append(DeliveryLedger.item(for: outcome, as: itemReport, known: known[key]))
        }
        ledger?.record(records, until: budget.end)
        for target in mine { locks.release(target.item.key) }
        return reports
    }

    /// How late a start is worth a word: a process starts in tens of milliseconds.
    static let lateStart: Duration = .seconds(1)

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", duration.inSeconds)
    }

    /// One item to fetch: streamed out of sight, then placed under a name made when its response
    /// has said what it is (`MediaFileName`).
    private struct Target: Sendable {
        let item: PlaylistItem
        let url: MediaURL
        let temporary: String

        func report(_ status: ItemReport.Status, bytes: Int64? = nil, path: String? = nil,
                    httpStatus: Int? = nil, error: String? = nil) -> ItemReport {
            ItemReport(key: item.key, title: item.title, url: item.urlString, status: status,
                       bytes: bytes, path: path, httpStatus: httpStatus, error: error)
        }
    }

    /// The report of an item whose file DIR already has, or nil when the name found has gone.
    private func present(_ target: Target, at path: String, in directory: MediaDirectory) -> ItemReport? {
        switch directory.presence(at: path) {
        case .file(let bytes): target.report(.alreadyPresent, bytes: bytes, path: path)
        case .other: target.report(.failed, error: "\(path) exists and is not a regular file")
        case .absent: nil
        }
    }

    /// The request for an item: resuming the kept partial body when the store knows the validator
    /// it was fetched under, from the start otherwise.
    private func request(for target: Target, known: StoredItem?, directory: MediaDirectory) -> TransferRequest {
        let key = target.item.key
        var resume: TransferRequest.Resume?
        if let offset = directory.partialBytes(key: key), offset > 0 {
            // The same file whatever the query: a signed URL's token changes on every push.
            // `If-Range` with the recorded validator makes a changed file come whole.
            // A resume needs the whole file's size too (`Resume.total`).
            if let known, known.state == .partial, (try? MediaURL(known.url))?.resource == target.url.resource,
               let validator = known.validator, let total = known.total {
                resume = TransferRequest.Resume(offset: offset, validator: validator, total: total)
                logger.info("resuming", metadata: ["key": "\(key)", "offset": "\(offset)"])
            } else {
                // Bytes of unknown origin (a crash before they were recorded): not worth the risk.
                unlink(target.temporary)
            }
        }
        return TransferRequest(id: key, url: target.url, temporaryPath: target.temporary,
                               maximumSize: options.maximumSize, resume: resume)
    }

    /// How the items that other deliveries were fetching ended, seen from this one: each is
    /// waited for, within this delivery's own deadline, until its lock comes free.
    private func outcomes(ofOthersFetching targets: [Target], directory: MediaDirectory, ledger: DeliveryLedger?,
                          locks: ItemLocks?, since startedAt: Date, until deadline: ContinuousClock.Instant,
                          stop: StopRequest?) async -> [ItemReport] {
        await withTaskGroup(of: ItemReport.self) { group in
            for target in targets {
                group.addTask {
                    let key = target.item.key
                    guard let locks, await locks.wait(for: key, until: deadline, stop: stop) else {
                        let why = stop?.reason ?? "the budget ran out"
                        return target.report(.timedOut, error: "another vodapp delivery was still fetching it when \(why)")
                    }
                    defer { locks.release(key) }
                    if let found = directory.index().file(for: target.item.key, urlExtension: target.url.fileExtension),
                       let known = present(target, at: found, in: directory) {
                        return known
                    }
                    guard let record = ledger?.items([key], until: deadline)[key], record.updatedAt >= startedAt else {
                        return target.report(.failed, error: "another vodapp delivery was fetching it and stopped without a word; the next delivery tries again")
                    }
                    let theirs = "fetched at the same time by another vodapp delivery: \(record.error ?? record.state.rawValue)"
                    switch record.state {
                    case .tooLarge: return target.report(.tooLarge, error: theirs)
                    case .partial: return target.report(.timedOut, error: theirs)
                    case .failed: return target.report(.failed, error: theirs)
                    case .fetched: return target.report(.failed, error: "another vodapp delivery fetched it, but \(record.path ?? "its file") is gone")
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    private func report(for outcome: TransferOutcome, target: Target, directory: MediaDirectory) -> ItemReport {
        let item = target.item
        let name = MediaFileName(key: item.key, title: item.title ?? "",
                                 fileExtension: MediaFileName.fileExtension(url: target.url, contentType: outcome.contentType),
                                 style: options.naming)
        let final = directory.path(of: name)
        let title = item.title
        let url = item.urlString
        let status = outcome.httpStatus
        switch outcome.result {
        case .completed(let bytes):
            switch directory.place(target.temporary, at: final) {
            case .placed:
                logger.info("downloaded", metadata: ["key": "\(item.key)", "bytes": "\(bytes)"])
                return ItemReport(key: item.key, title: title, url: url, status: .downloaded, bytes: bytes, path: final, httpStatus: status)
            case .alreadyThere:
                // Another delivery placed the same key while this one was fetching it.
                let size: Int64? = if case .file(let size) = directory.presence(at: final) { size } else { nil }
                return ItemReport(key: item.key, title: title, url: url, status: .alreadyPresent, bytes: size, path: final, httpStatus: status)
            case .failed(let reason):
                return ItemReport(key: item.key, title: title, url: url, status: .failed, httpStatus: status,
                                  error: "cannot place the file in \(directory.path): \(reason)")
            case .takenIgnoringCase(let reason):
                // Delivering again meets the same name: final, so that a script does not retry.
                return ItemReport(key: item.key, title: title, url: url, status: .failed, httpStatus: status,
                                  error: "cannot place the file in \(directory.path): \(reason)", final: true)
            }
        case .tooLarge(let declared):
            let size = declared.map { "it is \($0) bytes" } ?? "it passed the limit as it arrived"
            logger.info("dropped as too large", metadata: ["key": "\(item.key)", "bodyBytesReceived": "\(outcome.bodyBytesReceived)"])
            return ItemReport(key: item.key, title: title, url: url, status: .tooLarge, httpStatus: status,
                              error: "larger than the \(options.maximumSize)-byte limit: \(size)")
        case .timedOut(let reason):
            logger.info("timed out", metadata: ["key": "\(item.key)", "reason": "\(reason)"])
            return ItemReport(key: item.key, title: title, url: url, status: .timedOut, httpStatus: status, error: reason)
        case .failed(let reason):
            logger.info("failed", metadata: ["key": "\(item.key)", "reason": "\(reason)", "final": "\(outcome.isFinal)"])
            return ItemReport(key: item.key, title: title, url: url, status: .failed, httpStatus: status, error: reason,
                              final: outcome.isFinal)
        case .captured:
            // An HLS playlist `HLSDownloads` did not take up: it could not be read.
            return ItemReport(key: item.key, title: title, url: url, status: .failed, httpStatus: status,
                              error: "the server answered with a playlist vodapp cannot read", final: true)
        }
    }

    /// Brings `DIR/playlist.m3u8` up to date with what this payload left in DIR. Deliveries that
    /// end together take turns, so that neither loses the other's entries.
    private func updatePlaylist(of directory: MediaDirectory, with payload: Payload, reports: [String: ItemReport],
                                locks: ItemLocks, until deadline: ContinuousClock.Instant) async {
        let latest: [MediaPlaylist.Entry] = payload.items.compactMap { item in
            guard case .valid(let title, let subtitle, _) = item.validity, let report = reports[item.key],
                  report.status == .downloaded || report.status == .alreadyPresent,
                  let path = report.path, path.hasPrefix(directory.path + "/") else { return nil }
            return MediaPlaylist.entry(title: title, subtitle: subtitle, path: path)
        }
        // Not an item key (those have no dot), so no item's lock.
        guard await locks.wait(for: ".playlist", until: deadline, stop: nil) else {
            logger.warning("the playlist was not updated: another delivery held it until the budget ran out")
            return
        }
        defer { locks.release(".playlist") }
        let path = directory.path + "/" + MediaFileName.playlist
        let current = MediaPlaylist.text(at: path)
        let playlist = MediaPlaylist(parsing: current ?? "", keepingOnly: directory.regularFiles()).merging(latest)
        // Unchanged, it is not rewritten: most deliveries of a known playlist change nothing.
        if playlist.text != current, let failure = playlist.write(to: path, workPath: directory.workPath) {
            logger.warning("cannot write \(path): \(failure)")
        }
    }

    private func announce(_ items: [ItemReport], budget: Budget) async -> NotificationReport {
        guard options.notify else { return .notShown("disabled with --no-notify") }
        guard var notification = DesktopNotification(announcing: items) else {
            return .notShown("nothing new to announce")
        }
        if options.offersOpenFolder { notification.folder = options.directory }
        let report = await notifier.post(notification, deadline: budget.end)
        if let reason = report.reason {
            logger.warning("notification not shown: \(reason)")
        }
        return report
    }
}
