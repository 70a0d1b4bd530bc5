import Foundation
import Logging

/// Handles one payload from start to report: plan, fetch, place, notify.
///
/// Every entry point (a file, standard input, a UDP datagram, an HTTP POST) feeds payload bytes
/// into this same pipeline; nothing about how they arrived matters here.
public struct Delivery: Sendable {
    public let options: DeliveryOptions
    private let notifier: any Notifier
    private let claims: ItemClaims
    private let logger: Logger

    /// - Parameter claims: shared by deliveries that may run side by side (a listener's), so that
    ///   no item is fetched by two of them at once. A one-shot run has its own.
    public init(options: DeliveryOptions, notifier: any Notifier = LibNotifyNotifier(),
                claims: ItemClaims = ItemClaims(), logger: Logger) {
        self.options = options
        self.notifier = notifier
        self.claims = claims
        self.logger = logger
    }

    /// Fetches the payload's valid items into DIR within the options' budget.
    /// - Parameters:
    ///   - payload: a validated payload.
    ///   - started: when the run began (for a command, the process start), which is when the
    ///     budget starts counting, not when this is called.
    /// - Throws: `DeliveryError` when DIR cannot be created or written. Item failures are not
    ///   errors: they are in the report.
    public func run(_ payload: Payload, started: ContinuousClock.Instant = .now) async throws(DeliveryError) -> DeliveryReport {
        let budget = Budget(start: started, duration: options.budget)
        let directory = MediaDirectory(path: options.directory)
        var reports: [String: ItemReport] = [:]
        var requests: [TransferRequest] = []
        var targets: [String: Target] = [:]
        var othersFetching: [Target] = []

        for item in payload.items {
            guard case .valid(let title, _, let url) = item.validity else {
                if case .invalid(let reason, let title, let url) = item.validity {
                    reports[item.key] = ItemReport(key: item.key, title: title, url: url, status: .invalid, error: reason)
                }
                continue
            }
            let final = directory.finalPath(key: item.key, url: url)
            switch directory.presence(at: final) {
            case .file(let bytes):
                reports[item.key] = ItemReport(key: item.key, title: title, url: url.absoluteString,
                                               status: .alreadyPresent, bytes: bytes, path: final)
            case .other:
                reports[item.key] = ItemReport(key: item.key, title: title, url: url.absoluteString, status: .failed,
                                               error: "\(final) exists and is not a regular file")
            case .absent:
                let target = Target(item: item, final: final, temporary: directory.temporaryPath(key: item.key))
                guard claims.claim(final) else {
                    othersFetching.append(target)
                    continue
                }
                targets[item.key] = target
                requests.append(TransferRequest(id: item.key, url: url, temporaryPath: target.temporary,
                                                maximumSize: options.maximumSize))
            }
        }

        // Items another delivery is fetching are waited for while this one fetches its own.
        async let waited = outcomes(ofOthersFetching: othersFetching, directory: directory, until: budget.transferDeadline)
        if !requests.isEmpty {
            do {
                try directory.prepare()
            } catch {
                for target in targets.values {
                    claims.release(target.final, outcome: ItemReport(key: target.item.key, title: target.item.title, url: target.item.urlString,
                                                                     status: .failed, error: error.description))
                }
                _ = await waited
                throw error
            }
            let engine = TransferEngine(configuration: .init(jobs: options.jobs, userAgent: Self.userAgent), logger: logger)
            let outcomes = await engine.run(requests, deadline: budget.transferDeadline)
            for outcome in outcomes {
                guard let target = targets.removeValue(forKey: outcome.id) else { continue }
                let itemReport = report(for: outcome, target: target, directory: directory)
                reports[outcome.id] = itemReport
                claims.release(target.final, outcome: itemReport)
            }
            // The engine answers for every request; should it ever not, a claim left held would
            // make every later delivery of the item wait in vain.
            for target in targets.values {
                let missing = ItemReport(key: target.item.key, title: target.item.title, url: target.item.urlString,
                                         status: .failed, error: "the transfer ended without an outcome")
                reports[target.item.key] = missing
                claims.release(target.final, outcome: missing)
            }
            directory.sync()
        }
        for itemReport in await waited {
            reports[itemReport.key] = itemReport
        }

        let items = payload.items.compactMap { reports[$0.key] }
        let notification = await announce(items, budget: budget)
        return DeliveryReport(elapsed: budget.elapsed, budget: budget.duration, directory: options.directory,
                              items: items, notification: notification)
    }

    /// Where one fetched item goes: streamed out of sight, then placed under its final name.
    private struct Target {
        let item: PlaylistItem
        let final: String
        let temporary: String
    }

    static let userAgent = "vodapp/0.1 libcurl/\(Curl.version)"

    /// How the items that other deliveries were fetching ended, seen from this one.
    private func outcomes(ofOthersFetching targets: [Target], directory: MediaDirectory,
                          until deadline: ContinuousClock.Instant) async -> [ItemReport] {
        await withTaskGroup(of: ItemReport.self) { group in
            for target in targets {
                group.addTask {
                    let item = target.item
                    let wait = await claims.wait(for: target.final, until: deadline)
                    if case .file(let bytes) = directory.presence(at: target.final) {
                        return ItemReport(key: item.key, title: item.title, url: item.urlString, status: .alreadyPresent,
                                          bytes: bytes, path: target.final)
                    }
                    switch wait {
                    case .finished(let theirs) where theirs.status == .downloaded || theirs.status == .alreadyPresent:
                        return ItemReport(key: item.key, title: item.title, url: item.urlString, status: .failed,
                                          error: "another delivery fetched it at the same time, but \(target.final) is gone")
                    case .finished(let theirs):
                        return ItemReport(key: item.key, title: item.title, url: item.urlString, status: theirs.status,
                                          httpStatus: theirs.httpStatus,
                                          error: "fetched at the same time by another delivery: \(theirs.error ?? theirs.status.rawValue)")
                    case .notHeld:
                        return ItemReport(key: item.key, title: item.title, url: item.urlString, status: .failed,
                                          error: "another delivery fetching it at the same time did not complete it")
                    case .deadline:
                        return ItemReport(key: item.key, title: item.title, url: item.urlString, status: .timedOut,
                                          error: "another delivery was still fetching it when the budget ran out")
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    private func report(for outcome: TransferOutcome, target: Target, directory: MediaDirectory) -> ItemReport {
        let item = target.item
        let final = target.final
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
            }
        case .tooLarge(let declared):
            let size = declared.map { "it is \($0) bytes" } ?? "its body passed the limit with no Content-Length"
            logger.info("dropped as too large", metadata: ["key": "\(item.key)", "bodyBytesReceived": "\(outcome.bodyBytesReceived)"])
            return ItemReport(key: item.key, title: title, url: url, status: .tooLarge, httpStatus: status,
                              error: "larger than the \(options.maximumSize)-byte limit: \(size)")
        case .timedOut(let reason):
            logger.info("timed out", metadata: ["key": "\(item.key)", "reason": "\(reason)"])
            return ItemReport(key: item.key, title: title, url: url, status: .timedOut, httpStatus: status, error: reason)
        case .failed(let reason):
            logger.info("failed", metadata: ["key": "\(item.key)", "reason": "\(reason)"])
            return ItemReport(key: item.key, title: title, url: url, status: .failed, httpStatus: status, error: reason)
        }
    }

    private func announce(_ items: [ItemReport], budget: Budget) async -> NotificationReport {
        guard options.notify else { return .notShown("disabled with --no-notify") }
        guard let notification = DesktopNotification(announcing: items) else {
            return .notShown("nothing new to announce")
        }
        let report = await notifier.post(notification, deadline: budget.end)
        if let reason = report.reason {
            logger.warning("notification not shown: \(reason)")
        }
        return report
    }
}
