import Foundation
import Logging
import VODAppBase
import VODAppDeliveryPolicy
import VODAppDevice
import VODAppMediaDirectory
import VODAppNotify
import VODAppPayload
import VODAppReport
import VODAppStore
import VODAppTransferPolicy

/// Handles one payload from start to report, in the design's order: plan (the push's alert, then
/// deferral on a metered connection or in power saver), transfer, place, record, retention,
/// notify, report.
///
/// Every entry point (a file, standard input, a UDP datagram, an HTTP POST, a poll) parses its
/// payload and hands it to this same pipeline; nothing about how it arrived matters here but the
/// log line. Placing and recording happen item by item, as each transfer ends (`transfer`), so
/// that a small item is never hidden behind a large one.
public struct Delivery: Sendable {
    public let options: DeliveryOptions
    let notifier: any Notifier
    let logger: Logger
    let attention: Attention
    let progress: (any TransferProgress)?
    let device: any DeviceConditionSource

    /// - Parameters:
    ///   - logger: the delivery's diagnostics, at info and below.
    ///   - attention: what the person running it must hear of (a store that cannot be used, a
    ///     notification not shown, a playlist not written), besides the report.
    ///   - progress: whoever shows the transfers while they run (a terminal).
    ///   - device: whether the connection is metered or power saver is on, for `--on-metered`
    ///     and `--on-power-saver`: the system's monitors unless a test says.
    public init(options: DeliveryOptions, notifier: any Notifier = LibNotifyNotifier(), logger: Logger,
                attention: Attention, progress: (any TransferProgress)? = nil,
                device: any DeviceConditionSource = SystemDeviceConditions()) {
        self.options = options
        self.notifier = notifier
        self.logger = logger
        self.attention = attention
        self.progress = progress
        self.device = device
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
    /// - Throws: `MediaDirectoryError` when DIR cannot be created or written. Item failures are
    ///   not errors: they are in the report.
    public func run(_ payload: Payload, from source: DeliverySource, started: ContinuousClock.Instant = .now,
                    stop: StopRequest? = nil) async throws(MediaDirectoryError) -> DeliveryReport {
        let budget = Budget(start: started, duration: options.budget)
        let startedAt = Date(timeIntervalSinceNow: -budget.elapsed.inSeconds)
        let late = lateStart(of: budget)

        let planned = try plan(payload, budget: budget, startedAt: startedAt)
        defer { planned.locks?.releaseAll() }
        // The alert is the server's word, shown as the phone showed it, deferred or not.
        let alert = await showAlert(of: payload, plan: planned, budget: budget)
        let plan = await deferring(planned, budget: budget)
        recordStart(of: payload, from: source, plan: plan, budget: budget)
        // The folders every item it fetches is written in and placed from, checked once and held
        // until it ends (`FolderHold`). Without the hold (it could not be taken), each item walks
        // from DIR as before, and meets whatever stopped the hold.
        let hold = plan.mine.isEmpty ? nil : try? plan.directory.holdWorkFolders()
        defer { hold?.release() }

        // Items another delivery is fetching are waited for while this one transfers, places and
        // records its own.
        async let waited = outcomes(ofOthersFetching: plan, since: startedAt, until: budget.transferDeadline, stop: stop)
        var reports = plan.settled
        reports.merge(await transfer(plan, budget: budget, stop: stop)) { _, transferred in transferred }
        for itemReport in await waited {
            reports[itemReport.key] = itemReport
        }
        if let late {
            for (key, itemReport) in reports where itemReport.status == .timedOut {
                reports[key] = itemReport.noting("; the delivery began \(Self.seconds(late)) into its budget")
            }
        }
        let items = payload.items.compactMap { reports[$0.key] }
        // Not when stopped: a signal asks for a quick exit, and the next delivery removes them.
        let removed = stop?.reason == nil ? await applyRemovals(plan, startedAt: startedAt, keeping: reports, until: budget.end) : []
        await updatePlaylist(plan, with: payload, reports: reports, until: budget.end)
        // Segment folders given up, by this delivery or an earlier one, go while there is time:
        // removing 20,000 segments takes seconds, which a budget's reserve has not.
        if stop?.reason == nil { plan.directory.emptyDiscarded(until: budget.end - budget.reserve / 2) }

        let alertReport = await alert?.value
        let notification = await notify(items, deferral: plan.deferral, budget: budget, stop: stop, replacing: alertReport?.id)
        let report = DeliveryReport(elapsed: budget.elapsed, budget: budget.duration, directory: options.directory,
                                    items: items, notification: notification, alert: alertReport, removed: removed)
        plan.ledger?.log(DeliveryLogEntry(report, from: source, startedAt: startedAt, stoppedBecause: stop?.reason),
                         until: budget.end)
        return report
    }

    /// Tells the stores this process opens from now on that its deliveries overlap (a
    /// listener's): each keeps a pool of connections, so that one delivery's reads never wait
    /// behind another's write. A command, which runs one delivery, opens a single connection.
    public static func expectOverlappingDeliveries() {
        StateStore.connectionMode = .pool
    }

    /// Refuses a DIR whose way another user can change (`DirectoryPath`).
    static func checkWay(to directory: MediaDirectory) throws(MediaDirectoryError) {
        if let refusal = DirectoryPath.refusal(to: directory.path) {
            throw .directoryUnusable(path: directory.path, reason: "\(refusal), so another user could point it at another folder "
                                     + "while vodapp writes; keep DIR on a path only you (and root) can change")
        }
    }

    /// What this delivery does with each item: what DIR already has and what is invalid (settled
    /// now), what it fetches under its own locks, and what another delivery is fetching.
    /// - Parameter startedAt: when the delivery began, which its locks say while it runs
    ///   (`ItemLocks.markRunning`): removals spare what it records.
    func plan(_ payload: Payload, budget: Budget, startedAt: Date) throws(MediaDirectoryError) -> DeliveryPlan {
        var directory = MediaDirectory(path: options.directory)
        var settled: [String: ItemReport] = [:]
        var missing: [DeliveryTarget] = []

        // Checked before anything in it is used, on every path: a work area that is a link would
        // send partial bodies, locks and the store outside DIR.
        var hasWorkArea = try directory.checkWorkArea()
        if hasWorkArea { directory.restrictWorkArea() }
        // A way to DIR that another user can change can be swapped, mid-run, for a link to a
        // folder of the user's elsewhere (the sixth attacker trial overwrote a playlist in the
        // user's ~/Music that way) or of theirs (it got the files fetched with the user's
        // cookies): what is written follows the path. As OpenSSH's StrictModes refuses a ~/.ssh
        // others could change, vodapp refuses such a DIR before it writes anything.
        // A DIR not made yet is asked once it is (`prepare`).
        var wayChecked = false
        if FileManager.default.fileExists(atPath: directory.path) {
            try Self.checkWay(to: directory)
            wayChecked = true
        }
        // One descriptor for every lock this delivery takes, however long the playlist.
        var locks = hasWorkArea ? try ItemLocks.open(in: directory) : nil
        locks?.markRunning(since: startedAt)
        // A file a crashed retention set aside is back under its name before DIR is looked at,
        // whatever this run's options: until then it reads as removed by the user, and is neither
        // fetched nor listed. A retention running now (which holds the lock) does its own.
        if let locks, locks.takeUnheld(".retention") {
            directory.restoreSetAside()
            locks.release(".retention")
        }
        let index = directory.index()
        for item in payload.items {
            guard case .valid(_, _, let url) = item.validity else {
                if case .invalid(let reason, let title, _) = item.validity {
                    settled[item.key] = ItemReport(key: item.key, title: title, url: item.urlString, status: .invalid, error: reason)
                }
                continue
            }
            let target = DeliveryTarget(item: item, url: url, temporary: directory.temporaryPath(key: item.key))
            if let found = index.file(for: item.key, urlExtension: url.fileExtension), let known = present(target, at: found, in: directory) {
                settled[item.key] = known
            } else {
                missing.append(target)
            }
        }

        if !missing.isEmpty {
            // Whether to defer them may be asked (`deferring`): the device's monitors start now,
            // so that their first answers come while DIR and the store are read. A delivery with
            // nothing missing never asks, and loads no GLib.
            if options.deferral.defersAnything { device.prepare() }
            try directory.prepare()
            hasWorkArea = true
            if !wayChecked { try Self.checkWay(to: directory) }
        }
        // A run with nothing to fetch records itself only where vodapp has worked before: it
        // creates nothing in a DIR it found without a work area. The store may not hold up the
        // transfers for more than a quarter of the budget: a busy store costs a warning.
        let early = Self.storeDeadline(budget)
        let ledger = hasWorkArea ? DeliveryLedger(directory: directory.path, logger: logger, attention: attention, until: early) : nil
        // Before anything is placed or removed: every fingerprint is taken and checked under it.
        directory.fingerprintKey = ledger?.fingerprintKey(until: early)
        if options.vouched, let ledger {
            missing += replacingStrangers(&settled, of: payload, in: directory, ledger: ledger, locks: locks, until: early)
        }
        let known = ledger?.items(missing.map(\.item.key), until: early) ?? [:]
        // What the store's records settle costs no request (`settledByRecord`); a removal by the
        // user is noticed here.
        var noticed: [StoredItem] = []
        let now = Date()
        missing.removeAll { target in
            guard let (report, record) = settledByRecord(target, record: known[target.item.key], in: directory, now: now) else { return false }
            settled[target.item.key] = report
            if let record { noticed.append(record) }
            return true
        }
        ledger?.record(noticed, until: early)
        if locks == nil, hasWorkArea {
            locks = try ItemLocks.open(in: directory)
            locks?.markRunning(since: startedAt)
        }

        var othersFetching: [DeliveryTarget] = []
        var locked: [DeliveryTarget] = []
        for target in missing {
            if locks?.take(target.item.key) == true {
                locked.append(target)
            } else {
                othersFetching.append(target)
            }
        }
        // Another delivery may have placed some between the look and the locks.
        let relooked = locked.isEmpty ? index : directory.index()
        var mine: [DeliveryTarget] = []
        for target in locked {
            if let found = relooked.file(for: target.item.key, urlExtension: target.url.fileExtension),
               let known = present(target, at: found, in: directory) {
                locks?.release(target.item.key)
                settled[target.item.key] = known
            } else {
                mine.append(target)
            }
        }
        // --min-free: the room left is shared by this delivery's transfers; with none, nothing starts.
        var room: TransferRequest.Room?
        if let minimum = options.retention.minimumFree, !mine.isEmpty, let free = directory.freeBytes() {
            if free > minimum {
                room = TransferRequest.Room(bytes: ByteAllowance(free - minimum), floor: minimum,
                                            consequence: "leave less than --min-free \(ByteSize.format(minimum)) free in \(directory.path)")
            } else {
                let (shownFree, shownMinimum) = ByteSize.format(free, against: minimum)
                for target in mine {
                    settled[target.item.key] = target.report(.failed, error: "not started: \(directory.path) has \(shownFree) free, "
                                                             + "not more than --min-free \(shownMinimum)")
                    locks?.release(target.item.key)
                }
                mine = []
            }
        }
        return DeliveryPlan(directory: directory, settled: settled, mine: mine, othersFetching: othersFetching,
                            known: known, ledger: ledger, locks: locks, room: room)
    }

    /// The items whose file in DIR an unauthenticated push placed from another URL than the one
    /// this vouched-for delivery names: not this source's item, though named by its key, and
    /// not to be taken as present (the tenth attacker trial had a UDP push place its own bytes
    /// under the key of the user's next `vodapp get`, which then reported them as the user's).
    /// Each file goes through the safe removal path, while still the file vodapp placed (one
    /// the user changed since is theirs, and stays present), and is recorded as removed by
    /// vodapp; its item is fetched from the URL named now.
    /// - Returns: the items to fetch instead, taken out of `settled`.
    private func replacingStrangers(_ settled: inout [String: ItemReport], of payload: Payload, in directory: MediaDirectory,
                                    ledger: DeliveryLedger, locks: ItemLocks?, until deadline: ContinuousClock.Instant) -> [DeliveryTarget] {
        let present = payload.items.filter { settled[$0.key]?.status == .alreadyPresent }
        guard !present.isEmpty, let locks else { return [] }
        let records = ledger.items(present.map(\.key), until: deadline)
        var root: Folder?
        var replaced: [DeliveryTarget] = []
        var changes: [StoredItem] = []
        for item in present {
            guard case .valid(_, _, let url) = item.validity, let record = records[item.key], !record.vouched, record.state == .fetched,
                  record.url != item.urlString ?? "", locks.takeUnheld(item.key) else { continue }
            defer { locks.release(item.key) }
            root = root ?? (try? directory.folder())
            let reason = "an unauthenticated push placed it from another URL than the one named now"
            guard let root, let file = placedFile(of: record, in: directory, root: root),
                  remove(file, of: record, in: directory, root: root, reason: reason, for: "replacing it") != nil else { continue }
            attention.warn("replaced the file of \(item.key): \(reason); it is fetched from the URL named now")
            changes.append(record.removed(because: "removed: \(reason)", byVodapp: true))
            settled[item.key] = nil
            replaced.append(DeliveryTarget(item: item, url: url, temporary: directory.temporaryPath(key: item.key)))
        }
        ledger.record(changes, until: deadline)
        return replaced
    }

    /// The report of an item its store record settles without a request, if it does: what the
    /// user removed from DIR is not fetched again (what vodapp removed, for retention or
    /// --sync, is, when a push names it); a key a source that vouches for its pushes named with
    /// its URL is not another URL's for a push anyone could send (the eighth attacker trial's
    /// UDP push of the key of the user's cut download, naming its own server, had vodapp drop
    /// the user's kept bytes and place the sender's file under the user's title); and an item
    /// the store knows to be too large for this limit is not asked for (`TooLargeMemory`).
    /// - Returns: the report, and the record to save when a removal by the user is noticed now.
    func settledByRecord(_ target: DeliveryTarget, record: StoredItem?, in directory: MediaDirectory,
                         now: Date) -> (ItemReport, noticed: StoredItem?)? {
        guard let record else { return nil }
        if !options.retention.refetchRemoved {
            let found = record.asFound(in: directory)
            if found.state == .removed, !found.removedByVodapp {
                return (removedReport(target, record: found, since: record.state == .removed ? record.updatedAt : nil),
                        record.state != .removed ? found : nil)
            }
        }
        if !options.vouched, record.vouched, record.url != target.item.urlString ?? "" {
            return (target.report(.failed, error: "not fetched: a payload file, a poll or a signed push named this key with another "
                                  + "URL, which an unauthenticated push may not change", final: true), nil)
        }
        if let reason = TooLargeMemory.settles(record, url: target.item.urlString, limit: options.maximumSize, now: now) {
            return (target.report(.tooLarge, error: reason), nil)
        }
        return nil
    }

    /// Records, in one write, what the delivery takes and the push it is (`StateStore.recordStart`):
    /// a delivery the process does not survive stays counted, so a listener does not retry an
    /// item that killed it twice (`RetrySchedule.crashesTolerated`); and the push's valid items,
    /// in order, become the latest push, for `--sync` and `--playlist latest`. A listener's retry
    /// is no push, and an empty push changes nothing: a server's glitch must not empty a screen.
    private func recordStart(of payload: Payload, from source: DeliverySource, plan: DeliveryPlan, budget: Budget) {
        guard let ledger = plan.ledger else { return }
        let push = source == .retry ? [] : pushed(payload)
        let latest = ledger.recordStart(push: push, vouched: options.vouched,
                                        taking: plan.mine.map { StoredItem(started: $0.item, vouched: options.vouched) },
                                        until: Self.storeDeadline(budget))
        if !push.isEmpty, !latest {
            logger.info("not the latest push: an unauthenticated push does not take the place of an authenticated one")
        }
    }

    /// The payload's valid items, in its order, as the store keeps the latest push.
    func pushed(_ payload: Payload) -> [PushedItem] {
        payload.items.filter(\.isValid).enumerated().map { position, item in
            PushedItem(position: position, key: item.key, title: item.title ?? item.key, subtitle: item.subtitle, vouched: options.vouched)
        }
    }

    /// How long the store may hold up the transfers: at most a quarter of the budget (a busy
    /// store costs a warning, not the delivery).
    static func storeDeadline(_ budget: Budget) -> ContinuousClock.Instant {
        min(budget.transferDeadline, .now + budget.duration / 4)
    }

    /// How late a start is worth a word: a process starts in tens of milliseconds.
    static let lateStartWorthNoting: Duration = .seconds(1)

    /// How far into its budget the delivery begins, when that is worth a word. A listener's push
    /// may wait its turn in the queue, and its budget counts from its arrival: an item the budget
    /// cut then says how much of it was gone before the start.
    private func lateStart(of budget: Budget) -> Duration? {
        let lateBy = budget.elapsed
        guard lateBy >= Self.lateStartWorthNoting else { return nil }
        attention.note("the delivery began \(Self.seconds(lateBy)) into its \(Self.seconds(budget.duration)) budget")
        return lateBy
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", duration.inSeconds)
    }

    /// The desktop notification, when something new arrived, or new items were deferred, and
    /// nothing stopped the run. It takes the place of the push's alert, when one was shown
    /// (`replacing`), and then also says when nothing arrived.
    private func notify(_ items: [ItemReport], deferral: DeliveryPlan.Deferral?, budget: Budget, stop: StopRequest?,
                        replacing alert: UInt32?) async -> NotificationReport {
        if let reason = stop?.reason { return .notShown("stopped: \(reason)") }
        guard options.notify else { return .notShown("disabled with --no-notify") }
        let announcement = DesktopNotification(announcing: items)
        let deferred = deferral.flatMap { DesktopNotification(deferring: $0.news, until: $0.reason.awaited) }
        guard var notification = announcement ?? deferred
                ?? alert.flatMap({ _ in DesktopNotification(replacingAlertAfter: items) }) else {
            return .notShown("nothing new to announce")
        }
        notification.replacing = alert
        // Only new videos are worth opening the folder for.
        if announcement != nil {
            notification.folder = options.directory
            notification.folderAction = options.offersOpenFolder
        }
        let report = await notifier.post(notification, deadline: budget.end)
        if let reason = report.reason {
            attention.warn("notification not shown: \(reason)")
        }
        return report
    }
}
