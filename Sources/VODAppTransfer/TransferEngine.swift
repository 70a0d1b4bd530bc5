import CCurl
import Foundation
import Logging
import VODAppBase

/// Runs a batch of transfers through one libcurl multi handle, under one deadline.
///
/// A dedicated thread owns the multi handle and every easy handle from creation to cleanup, so no
/// curl handle is ever touched from two threads. At most `jobs` transfers are in flight; the rest
/// wait their turn. When the deadline comes, every unfinished transfer is cut and reported as
/// timed out, whatever state it is in (resolving, connecting, waiting for headers, mid-body).
public struct TransferEngine: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Most transfers in flight at once.
        public var jobs: Int
        public var maximumRedirects: Int
        public var userAgent: String
        /// Smallest remaining first when the link cannot carry everything before the deadline;
        /// false runs every transfer at full share to the end (`--all-at-once`).
        public var budgetAware: Bool
        /// A PEM file of certificates to trust instead of the system's; nil for the system's.
        public var certificateAuthorities: String?
        /// Header lines (`Name: value`) sent to each item's own origin only (`--header`).
        public var headers: [String]
        /// A Netscape cookie file whose cookies go to each item's own origin only (`--cookies`).
        public var cookieFile: String?
        /// Where `headers` may go (`--header-host`); empty for every item's own origin.
        public var headerHosts: [HeaderScope] = []
        /// Most transfers in flight to one host (`host:port`), so that the queued items of one
        /// busy or dead host never hold every slot while another host's items wait.
        public var perHost: Int
        /// The most body bytes per second the whole run may receive (`--limit-rate`), however
        /// many transfers share it (`RateGate`); nil for no limit.
        public var rateLimit: Int64?

        public static let defaultJobs = 16
        /// As browsers do: more connections to one server rarely make it faster.
        public static let defaultPerHost = 6

        public init(jobs: Int = Self.defaultJobs, maximumRedirects: Int = 5, userAgent: String = "vodapp",
                    budgetAware: Bool = true, certificateAuthorities: String? = nil,
                    headers: [String] = [], cookieFile: String? = nil, headerHosts: [HeaderScope] = [],
                    perHost: Int = Self.defaultPerHost, rateLimit: Int64? = nil) {
            self.jobs = max(1, jobs)
            self.rateLimit = rateLimit
            self.perHost = max(1, perHost)
            self.maximumRedirects = maximumRedirects
            self.userAgent = userAgent
            self.budgetAware = budgetAware
            self.certificateAuthorities = certificateAuthorities
            self.headers = headers
            self.cookieFile = cookieFile
            self.headerHosts = headerHosts
        }

        /// Whether `--header` may go to `url`: a scope admits it (`HeaderScope`).
        func allowsHeaders(to url: MediaURL) -> Bool {
            headerHosts.isEmpty || headerHosts.contains { $0.admits(url) }
        }
    }

    public let configuration: Configuration
    private let logger: Logger

    public init(configuration: Configuration = Configuration(), logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Fetches every request, returning one outcome per request, in the order given.
    ///
    /// Completed bodies are left in their temporary files for the caller to place. A transfer cut
    /// by the deadline, a stop request or a dropped connection keeps its bytes there when the
    /// response had validators, so a later request can resume it (`TransferOutcome.partial`);
    /// otherwise its file is removed. Connection failures, resets, 408, 429 and 5xx are retried
    /// with exponential backoff and jitter, or after `Retry-After`, while the deadline allows.
    /// - Parameters:
    ///   - stop: cuts every transfer at once when asked, as the deadline would.
    ///   - completed: called on the transfer thread with a request and its outcome as soon as its
    ///     whole body is there, so the caller can make it durable and place it while others run.
    ///   - checkpoint: called on the transfer thread once a response's body is going to its file in
    ///     a way a later request could resume (`TransferContext.takeCheckpoint`), at most once per
    ///     response, so the caller can record it before a crash could lose it.
    ///   - progress: called on the transfer thread with the state of the transfers, at most every
    ///     `progressInterval` and once at the end.
    ///   - followUp: hears how each request ended and adds the requests that follow from it to
    ///     this run (an HLS item's playlists, keys and segments); only the outcomes of `requests`
    ///     are returned.
    public func run(_ requests: [TransferRequest], deadline: ContinuousClock.Instant,
                    stop: StopRequest? = nil,
                    completed: (@Sendable (TransferRequest, TransferOutcome) -> Void)? = nil,
                    checkpoint: (@Sendable (_ id: String, TransferOutcome.Partial) -> Void)? = nil,
                    progress: (@Sendable (TransferSnapshot) -> Void)? = nil,
                    followUp: (any TransferFollowUp)? = nil) async -> [TransferOutcome] {
        guard !requests.isEmpty else { return [] }
        // A thread of its own, not a pool's: the loop blocks in curl_multi_poll for the whole
        // delivery, and a listener runs several deliveries at once; on a shared pool of one
        // thread per core they would wait for each other.
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: self.runOnCurrentThread(requests, deadline: deadline, stop: stop,
                                                                       completed: completed, checkpoint: checkpoint,
                                                                       progress: progress, followUp: followUp))
            }
            thread.name = "vodapp-curl"
            thread.start()
        }
    }

    /// When failed transfers are asked for again.
    static let retryPolicy = RetryPolicy()

    /// The longest a connection may take to be accepted (TLS handshake included), at most a
    /// third of the time left: a host that drops SYNs costs this, not the budget.
    static let longestConnect: Duration = .seconds(5)

    /// libcurl's read buffer for a transfer: fewer, larger writes to the file.
    static let bufferSize = 64 * 1024

    /// How often the progress callback hears of the transfers.
    static let progressInterval: Duration = .milliseconds(100)

    private func runOnCurrentThread(_ requests: [TransferRequest], deadline: ContinuousClock.Instant,
                                    stop: StopRequest?,
                                    completed: (@Sendable (TransferRequest, TransferOutcome) -> Void)?,
                                    checkpoint: (@Sendable (String, TransferOutcome.Partial) -> Void)?,
                                    progress: (@Sendable (TransferSnapshot) -> Void)?,
                                    followUp: (any TransferFollowUp)?) -> [TransferOutcome] {
        Curl.initialize()
        guard let multi = curl_multi_init() else {
            return requests.map { TransferOutcome(id: $0.id, result: .failed(reason: "libcurl could not start")) }
        }
        // The handle as an address, which is Sendable: it is only ever passed back to
        // `curl_multi_wakeup`, and `stop` calls that under its lock, which `unregister` takes
        // before the handle is cleaned up.
        let address = UInt(bitPattern: multi)
        stop?.register(address) {
            if let multi = UnsafeMutableRawPointer(bitPattern: address) { curl_multi_wakeup(multi) }
        }
        // The follow-up may withdraw requests between outcomes (a timer's), and wakes the loop to
        // say so; it lets the handle go under its own lock before the handle is cleaned up.
        followUp?.attach(wake: {
            if let multi = UnsafeMutableRawPointer(bitPattern: address) { curl_multi_wakeup(multi) }
        })
        defer {
            followUp?.attach(wake: nil)
            stop?.unregister(address)
            curl_multi_cleanup(multi)
        }

        // The outcomes of the caller's requests only: those of the requests a follow-up added
        // are heard by the follow-up and not kept, or thousands of segments would stay in memory.
        var outcomes: [String: TransferOutcome] = [:]
        // What the caller asked for: the progress display counts these, not the requests a
        // follow-up added (an HLS item's segments).
        let requested = Set(requests.map(\.id))
        // Each host gets at most `perHost` slots: the next waiting item of a host with room
        // starts, not merely the next waiting item.
        var waiting = TransferQueue(perHost: configuration.perHost)
        for request in requests { waiting.append(TransferQueue.Entry(request: request, attempt: 1)) }
        // Retries by when they are due; `retrying` holds the ids still wanted, so that a cancelled
        // one is passed over when it comes out instead of being searched for.
        var delayed = MinimumHeap<Retry> { $0.at < $1.at }
        var retrying: Set<String> = []
        var active: [UnsafeMutableRawPointer: TransferContext] = [:]
        var planner = BandwidthPlanner(enabled: configuration.budgetAware)
        // Body bytes of the transfers that ended or were set aside: the link's rate counts them.
        var transferred: Int64 = 0
        // Hosts (`host:port`) that did not take a connection, and why: their other items are not
        // tried in this run.
        var unreachable: [String: String] = [:]
        // Requests of unreachable hosts, to end untried at the top of the next turn.
        var untried: [TransferQueue.Entry] = []
        func markUnreachable(_ endpoint: String, because why: String) {
            guard unreachable[endpoint] == nil else { return }
            unreachable[endpoint] = why
            untried += waiting.removeAll(host: endpoint)
        }
        func enqueue(_ request: TransferRequest, attempt: Int, inFront: Bool) {
            let entry = TransferQueue.Entry(request: request, attempt: attempt)
            if unreachable[Self.endpoint(of: request.url)] != nil {
                untried.append(entry)
            } else if inFront {
                waiting.prepend(entry)
            } else {
                waiting.append(entry)
            }
        }
        var snapshot = TransferSnapshot()
        var published = ContinuousClock.now
        // The caller's requests that are done, their follow-ups included.
        func ended() -> Int {
            outcomes.keys.count { requested.contains($0) && followUp?.isUnderway($0) != true }
        }
        defer {
            snapshot.active = []
            snapshot.ended = ended()
            progress?(snapshot)
        }
        // Transfers set aside by the planner, smallest remaining first.
        var aside: [Aside] = []
        // `rateLimit`, shared by every transfer of the run.
        let gate = configuration.rateLimit.map(RateGate.init(rate:))
        // Drops requests the follow-up no longer wants, wherever they are: queued, waiting to
        // be retried, set aside, or running (a subtitle given up while it dripped held the
        // delivery's report to the budget's end: attacker trial). They end without an outcome.
        func drop(_ ids: Set<String>) {
            waiting.cancel(ids)
            retrying.subtract(ids)
            // Once per item that gives up, not per event; and few transfers are aside.
            aside.removeAll { ids.contains($0.request.id) }
            for context in active.values where ids.contains(context.request.id) {
                active.removeValue(forKey: context.handle)
                waiting.ended(context.request.url)
                curl_multi_remove_handle(multi, context.handle)
                transferred += context.bodyBytes
                _ = context.settle(keep: false)
                curl_easy_cleanup(context.handle)
            }
        }
        // Records an outcome that is final for its request, and lets the follow-up hear it.
        func conclude(_ outcome: TransferOutcome) {
            if let followUp {
                let next = followUp.next(after: outcome)
                if !next.cancel.isEmpty { drop(next.cancel) }
                for request in next.add { enqueue(request, attempt: 1, inFront: false) }
            }
            if requested.contains(outcome.id) { outcomes[outcome.id] = outcome }
        }

        while true {
            // Requests the follow-up gave up between outcomes (a timer's).
            if let gone = followUp?.withdrawn(), !gone.isEmpty { drop(gone) }
            let now = ContinuousClock.now
            // Retries whose time has come go to the front of the line.
            while let retry = delayed.first, retry.at <= now {
                _ = delayed.removeFirst()
                if retrying.remove(retry.request.id) != nil {
                    enqueue(retry.request, attempt: retry.attempt, inFront: true)
                }
            }
            // A host that did not take a connection costs its other items nothing more: they
            // end now, untried, instead of each waiting out its own connect timeout. Ending one
            // may add more (an HLS item's next segments), which end here too.
            while !untried.isEmpty {
                let batch = untried
                untried = []
                for entry in batch {
                    let why = unreachable[Self.endpoint(of: entry.request.url)] ?? ""
                    conclude(TransferOutcome(id: entry.request.id,
                                             result: .failed(reason: why + (entry.attempt > 1 ? "; not tried again" : "; not tried")),
                                             partial: Self.kept(by: entry.request), attempts: entry.attempt - 1))
                }
            }
            while active.count < configuration.jobs, let next = waiting.next() {
                switch start(next.request, attempt: next.attempt, in: multi, deadline: deadline, gate: gate) {
                case .running(let context):
                    active[context.handle] = context
                case .refused(let outcome):
                    waiting.ended(next.request.url)
                    conclude(outcome)
                }
            }
            if active.isEmpty && waiting.isEmpty && retrying.isEmpty && aside.isEmpty && untried.isEmpty { break }
            // Held transfers whose turn has come read again.
            gate?.release { active[$0] != nil }

            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE,
                      let handle = message.pointee.easy_handle,
                      let context = active.removeValue(forKey: handle) else { continue }
                waiting.ended(context.request.url)
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                transferred += context.bodyBytes
                let ending = finish(context, code: code)
                let endpoint = Self.endpoint(of: context.request.url)
                // Waited out at once: a host that leaves SYNs unanswered for seconds will not
                // answer the next item's in this run either.
                if code == CURLE_OPERATION_TIMEDOUT, let why = unreachableReason(context) {
                    markUnreachable(endpoint, because: why)
                }
                curl_easy_cleanup(handle)
                guard case .outcome(let outcome, let again) = ending else {
                    if case .redirect(let next) = ending {
                        // Followed here, not by libcurl, so that each hop is checked and the
                        // item's headers and cookies stay with its own origin.
                        logger.debug("redirected", metadata: ["key": "\(next.id)", "to": "\(next.url.redacted)"])
                        enqueue(next, attempt: context.attempt, inFront: true)
                    }
                    continue
                }
                if case .completed(let bytes) = outcome.result {
                    completed?(context.request, outcome)
                    snapshot.completedBytes += bytes
                }
                if again != .no, let retry = retry(after: outcome, of: context, immediately: again == .now, deadline: deadline) {
                    logger.info("retrying", metadata: ["key": "\(context.request.id)", "attempt": "\(retry.attempt)",
                                                       "after": "\(retry.delay)", "because": "\(Self.describe(outcome.result))"])
                    delayed.insert(retry)
                    retrying.insert(retry.request.id)
                    // Kept until the retry ends: if the run is cut first, why it failed says more
                    // than that the budget ran out meanwhile.
                    if requested.contains(outcome.id) { outcomes[outcome.id] = outcome }
                    continue
                }
                if code == CURLE_COULDNT_CONNECT, unreachable[endpoint] == nil {
                    // Refused (or unroutable) through every retry: a restart would have been over
                    // by now. Refusals are quick, so one alone is only retried, never this.
                    markUnreachable(endpoint, because: "\(endpoint) refused the connection \(context.attempt) times")
                }
                conclude(outcome)
            }
            if let checkpoint {
                for context in active.values {
                    if let partial = context.takeCheckpoint() { checkpoint(context.request.id, partial) }
                }
            }
            if let progress, published.duration(to: .now) >= Self.progressInterval {
                snapshot.ended = ended()
                snapshot.active = active.values.sorted { $0.started < $1.started }
                    .map { TransferSnapshot.Transfer(id: $0.request.id, bytes: $0.fileBytes, total: $0.declaredTotal) }
                progress(snapshot)
                published = .now
            }
            let inFlight = active.values.sorted { $0.started < $1.started }
            let decision = planner.plan(
                inFlight.map { BandwidthPlanner.Transfer(id: $0.request.id, remaining: $0.remainingBytes, receivingBody: $0.receivingBody) },
                aside: aside.map { BandwidthPlanner.Waiting(id: $0.request.id, remaining: $0.remaining) },
                transferred: transferred + inFlight.reduce(0) { $0 + $1.bodyBytes }, deadline: deadline, now: .now)
            if !decision.setAside.isEmpty {
                let ids = Set(decision.setAside)
                for context in inFlight where ids.contains(context.request.id) {
                    active.removeValue(forKey: context.handle)
                    waiting.ended(context.request.url)
                    curl_multi_remove_handle(multi, context.handle)
                    transferred += context.bodyBytes
                    let remaining = context.remainingBytes ?? .max
                    let partial = context.settle(keep: true)
                    aside.append(Aside(request: context.request(resuming: partial), attempt: context.attempt,
                                       remaining: remaining, partial: partial))
                    logger.debug("set aside", metadata: ["key": "\(context.request.id)", "remaining": "\(remaining)"])
                    curl_easy_cleanup(context.handle)
                }
                aside.sort { $0.remaining < $1.remaining }
            }
            if !decision.restore.isEmpty {
                let ids = Set(decision.restore)
                for entry in aside.filter({ ids.contains($0.request.id) }).reversed() {
                    logger.debug("restored", metadata: ["key": "\(entry.request.id)", "remaining": "\(entry.remaining)"])
                    enqueue(entry.request, attempt: entry.attempt, inFront: true)
                }
                aside.removeAll { ids.contains($0.request.id) }
                continue
            }
            if active.isEmpty && waiting.isEmpty && retrying.isEmpty && aside.isEmpty && untried.isEmpty { break }

            let remaining = ContinuousClock.now.duration(to: deadline)
            if let reason = stop?.reason ?? (remaining <= .zero ? Self.budgetRanOut : nil) {
                for outcome in cut(active: active, waiting: untried + waiting.removeAll(), in: multi, because: reason) {
                    guard requested.contains(outcome.id) else {
                        followUp?.cut(outcome)
                        continue
                    }
                    // A retry cut before any answer keeps the failure that made it a retry ("the
                    // server answered HTTP 500"): that says more than that the budget ran out.
                    if let previous = outcomes[outcome.id], case .failed = previous.result, case .timedOut = outcome.result,
                       outcome.httpStatus == nil, outcome.bodyBytesReceived == 0 {
                        continue
                    }
                    outcomes[outcome.id] = outcome
                }
                for entry in aside where requested.contains(entry.request.id) {
                    outcomes[entry.request.id] = TransferOutcome(
                        id: entry.request.id, result: .timedOut(reason: Self.setAsideReason(entry, cutBecause: reason)),
                        httpStatus: 200, partial: entry.partial, attempts: entry.attempt)
                }
                break
            }
            // A finished transfer freed a slot: start the next one now rather than after a poll.
            if active.count < configuration.jobs && (waiting.canStart() || !untried.isEmpty) { continue }
            // curl_multi_poll also honours libcurl's own timers; the deadline and the next retry
            // bound the wait so that a silent server cannot hold the run past either.
            var wait = remaining
            if let next = delayed.first?.at { wait = min(wait, ContinuousClock.now.duration(to: next)) }
            if configuration.budgetAware { wait = min(wait, BandwidthPlanner.interval) }
            if let open = gate?.untilOpen { wait = min(wait, open) }
            curl_multi_poll(multi, nil, 0, Int32(clamping: max(0, wait.milliseconds) + 1), nil)
        }
        return requests.compactMap { outcomes[$0.id] }
    }
}

/// What a run fetches next once one of its requests has ended.
public protocol TransferFollowUp: Sendable {
    /// Called on the transfer thread with each outcome that is final for its request (a request
    /// about to be retried is not final yet).
    /// - Returns: requests to add to the run, and the ids of queued requests no longer wanted.
    func next(after outcome: TransferOutcome) -> (add: [TransferRequest], cancel: Set<String>)

    /// Whether the request `id` of the caller's has ended but its follow-up requests have not: an
    /// HLS item whose playlist arrived and whose segments are still coming is not done.
    func isUnderway(_ id: String) -> Bool

    /// Called on the transfer thread as the run is cut (its deadline, a signal), with the outcome
    /// of each request the follow-up added that was still running or waiting: what it kept
    /// (`partial`) the next run may resume.
    func cut(_ outcome: TransferOutcome)

    /// Asked at every turn of the run: the ids of requests it added that it no longer wants,
    /// queued or running, given up between outcomes (a timer's). They end without an outcome.
    func withdrawn() -> Set<String>

    /// Called as the run starts with what wakes it (to ask `withdrawn` at once), and with nil as
    /// it ends: not to be called after that.
    func attach(wake: (@Sendable () -> Void)?)
}

extension TransferFollowUp {
    public func cut(_ outcome: TransferOutcome) {}
    public func withdrawn() -> Set<String> { [] }
    public func attach(wake: (@Sendable () -> Void)?) {}
}

extension TransferEngine {

    /// A request to try again later.
    private struct Retry {
        let request: TransferRequest
        let attempt: Int
        let at: ContinuousClock.Instant
        let delay: Duration
    }

    /// A transfer the planner set aside, with what it has left and what it keeps.
    private struct Aside {
        let request: TransferRequest
        let attempt: Int
        /// Body bytes still to come; `Int64.max` when unknown.
        let remaining: Int64
        let partial: TransferOutcome.Partial?
    }

    static let budgetRanOut = "the budget ran out"

    /// When to try a failed transfer again that is worth another attempt (see `finish`), by
    /// `retryPolicy`.
    /// - Parameter immediately: the last answer was good but short: the rest is asked for now.
    private func retry(after outcome: TransferOutcome, of context: TransferContext, immediately: Bool = false,
                       deadline: ContinuousClock.Instant) -> Retry? {
        guard case .failed = outcome.result else { return nil }
        let cause: RetryPolicy.Cause = immediately ? .shortAnswer : .failure(retryAfterSeconds: outcome.retryAfterSeconds)
        guard let next = Self.retryPolicy.next(after: context.attempt, cause: cause, jitter: .random(in: RetryPolicy.jitter),
                                               now: .now, deadline: deadline) else { return nil }
        // A short answer that brought bytes is progress, not a failed attempt: the file grows
        // each time, so this ends, at the file's size or the deadline.
        let attempt = immediately && (outcome.partial?.bytes ?? 0) > (context.request.resume?.offset ?? 0) ? context.attempt : context.attempt + 1
        return Retry(request: context.request(resuming: outcome.partial), attempt: attempt, at: next.at, delay: next.delay)
    }

    /// `host:port`: what the per-host limit counts, and what a connection is made to.
    static func endpoint(of url: MediaURL) -> String {
        url.origin.range(of: "://").map { String(url.origin[$0.upperBound...]) } ?? url.origin
    }

    /// What a request that never ran still has in its temporary file, from an earlier transfer.
    private static func kept(by request: TransferRequest) -> TransferOutcome.Partial? {
        request.resume.map { TransferOutcome.Partial(bytes: $0.offset, etag: nil, lastModified: nil, total: $0.total) }
    }

    /// Why a transfer libcurl timed out got no connection, or nil when it had one: its connect
    /// timeout (`CURLOPT_CONNECTTIMEOUT_MS`) ran out, not the deadline, which the engine cuts
    /// itself before libcurl's backstop.
    private func unreachableReason(_ context: TransferContext) -> String? {
        guard context.responseCode == 0 else { return nil }
        let endpoint = Self.endpoint(of: context.request.url)
        let within = "within \(Self.describe(context.connectTimeout))"
        if context.curlMessage.hasPrefix("Resolving timed out") {
            return "the name \(context.request.url.host) did not resolve \(within)"
        }
        if !context.connected { return "\(endpoint) did not accept a connection \(within)" }
        if context.request.url.isHTTPS && !context.handshaken {
            return "\(endpoint) accepted a connection but did not finish the TLS handshake \(within)"
        }
        return nil
    }

    /// `5 s`, `2.5 s`.
    private static func describe(_ duration: Duration) -> String {
        let tenths = (duration.milliseconds + 50) / 100
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }

    /// What a person reads for an item the planner set aside when the run was cut.
    private static func setAsideReason(_ entry: Aside, cutBecause reason: String) -> String {
        let kept = entry.partial.map { partial in
            "; \(ByteSize.format(partial.bytes))" + (partial.total.map { " of \(ByteSize.format($0))" } ?? "") + " kept to resume"
        } ?? "; nothing could be kept to resume"
        if reason == budgetRanOut {
            return "set aside so that smaller items could finish before the budget ran out\(kept)"
        }
        return "\(reason) while it was set aside for smaller items\(kept)"
    }

    /// Ends every unfinished transfer as timed out, freeing its handle and keeping what can be
    /// resumed.
    private func cut(
        active: [UnsafeMutableRawPointer: TransferContext], waiting: [TransferQueue.Entry],
        in multi: UnsafeMutableRawPointer, because reason: String
    ) -> [TransferOutcome] {
        var outcomes: [TransferOutcome] = []
        for (handle, context) in active {
            curl_multi_remove_handle(multi, handle)
            let partial = context.settle(keep: true)
            let status = context.responseCode
            // In a person's units, as the set-aside reason and the summary count: "after 1.7 MiB;
            // 2.9 MiB of 8.0 MiB kept to resume", "before the server sent a byte".
            let kept = partial.map { partial in
                "; \(ByteSize.format(partial.bytes))" + (partial.total.map { " of \(ByteSize.format($0))" } ?? "") + " kept to resume"
            } ?? (context.bodyBytes > 0 ? "; nothing could be kept to resume (no validator or no size)" : "")
            let arrived: String
            if context.bodyBytes > 0 {
                arrived = "after " + ByteSize.format(context.bodyBytes) + (context.baseOffset > 0 ? " more" : "")
            } else if context.responseCode > 0 {
                arrived = "before the body's first byte"
            } else {
                arrived = "before the server answered"
            }
            outcomes.append(TransferOutcome(
                id: context.request.id, result: .timedOut(reason: "\(reason) \(arrived)\(kept)"),
                httpStatus: status == 0 ? nil : status, bodyBytesReceived: context.bodyBytes,
                etag: context.etag, lastModified: context.lastModified, partial: partial, attempts: context.attempt))
            curl_easy_cleanup(handle)
        }
        for next in waiting {
            outcomes.append(TransferOutcome(
                id: next.request.id, result: .timedOut(reason: "\(reason) before the transfer could start"),
                partial: Self.kept(by: next.request), attempts: next.attempt - 1))
        }
        // A transfer waiting to be retried keeps the outcome of its last attempt: why it failed
        // says more than that the budget ran out meanwhile.
        return outcomes
    }

    private func start(
        _ request: TransferRequest, attempt: Int, in multi: UnsafeMutableRawPointer, deadline: ContinuousClock.Instant,
        gate: RateGate?
    ) -> Start {
        guard let handle = curl_easy_init() else {
            return .refused(TransferOutcome(id: request.id, result: .failed(reason: "libcurl could not create a transfer")))
        }
        let context = TransferContext(request: request, handle: handle, attempt: attempt)
        context.gate = gate
        let opaque = Unmanaged.passUnretained(context).toOpaque()

        vod_easy_setopt_string(handle, CURLOPT_URL, request.url.absoluteString)
        vod_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        // The resolver thread is abandoned at cleanup instead of joined, so a hanging DNS lookup
        // cannot hold the process past its deadline.
        vod_easy_setopt_long(handle, CURLOPT_QUICK_EXIT, 1)
        vod_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        // Redirects are followed by the engine, one request per hop (`finish`).
        vod_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        vod_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        vod_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        if let certificateAuthorities = configuration.certificateAuthorities {
            vod_easy_setopt_string(handle, CURLOPT_CAINFO, certificateAuthorities)
        }
        // Media should arrive as stored: asking for identity keeps servers from compressing it,
        // and setting the option at all makes libcurl decode a body a server encodes anyway, so
        // the file holds the media, not its gzip.
        vod_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "identity")
        var headerLines: [String] = []
        if let resume = request.resume {
            // CURLOPT_RANGE, not CURLOPT_RESUME_FROM: libcurl then takes a 200 (a server that
            // ignores ranges, or a changed resource under If-Range) as the whole body instead of
            // failing, and the write callback starts the file over.
            vod_easy_setopt_string(handle, CURLOPT_RANGE, "\(resume.offset)-")
            headerLines.append("If-Range: \(resume.validator)")
        } else if let slice = request.slice {
            vod_easy_setopt_string(handle, CURLOPT_RANGE, "\(slice.offset)-\(slice.last)")
        }
        // No CURLOPT_MAXFILESIZE: libcurl applies it to any response's Content-Length, so an error
        // page or a redirect longer than a key's 64 bytes would read as "too large". The header
        // callback checks the length of a 2xx response instead (TransferContext).
        if request.carriesCredentials {
            if configuration.allowsHeaders(to: request.url) { headerLines += configuration.headers }
            if let cookieFile = configuration.cookieFile {
                // libcurl's cookie engine reads the file for this transfer and sends the cookies
                // that match this URL; a hop to another origin gets no cookie engine at all.
                vod_easy_setopt_string(handle, CURLOPT_COOKIEFILE, cookieFile)
            }
        }
        for line in headerLines {
            context.headers = curl_slist_append(context.headers, line)
        }
        if context.headers != nil {
            vod_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, context.headers)
        }
        vod_easy_setopt_long(handle, CURLOPT_BUFFERSIZE, gate?.bufferSize ?? Self.bufferSize)
        vod_easy_setopt_string(handle, CURLOPT_USERAGENT, configuration.userAgent)
        vod_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, context.errorBuffer)
        vod_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, transferWriteCallback)
        vod_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, opaque)
        vod_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, transferHeaderCallback)
        vod_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, opaque)
        // A backstop only: the engine loop cuts transfers at the deadline itself.
        let left = ContinuousClock.now.duration(to: deadline)
        vod_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(max(1, left.milliseconds + 1000)))
        // A host that leaves SYNs unanswered would otherwise hold this slot to the deadline.
        // Whole seconds, so that the reason a person reads is a plain number.
        context.connectTimeout = min(Self.longestConnect, .seconds(max(1, (left / 3).milliseconds / 1000)))
        vod_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(context.connectTimeout.milliseconds))

        let added = curl_multi_add_handle(multi, handle)
        guard added == CURLM_OK else {
            curl_easy_cleanup(handle)
            return .refused(TransferOutcome(
                id: request.id,
                result: .failed(reason: "libcurl refused the transfer: \(String(cString: curl_multi_strerror(added)))")))
        }
        logger.debug("transfer started", metadata: ["key": "\(request.id)", "url": "\(request.url.redacted)"])
        return .running(context)
    }

    /// Whether to ask again after a transfer that did not complete.
    private enum Again {
        case no
        /// After a backoff: connection failures and resets, 408, 429, 5xx, a 416 to a resume.
        case later
        /// At once: the answer was good but not all of it (a short 206).
        case now
    }

    /// How a transfer ended: an outcome and whether to ask again, or the next hop of a redirect.
    private enum Ending {
        case outcome(TransferOutcome, again: Again)
        case redirect(TransferRequest)
    }

    /// What a transfer's result is, and what becomes of its bytes.
    private struct Classification {
        var result: TransferOutcome.Result
        var isFinal = false
        var again = Again.no
        /// Whether the bytes in the file may be kept to resume from.
        var keep = true
    }

    private func finish(_ context: TransferContext, code: CURLcode) -> Ending {
        let status = context.responseCode
        if (300..<400).contains(status), let target = context.redirectTarget, code == CURLE_OK || code == CURLE_WRITE_ERROR {
            switch redirect(context, to: target) {
            case .success(let next):
                return .redirect(next)
            case .failure(let refusal):
                let partial = context.settle(keep: true)
                return .outcome(TransferOutcome(id: context.request.id, result: .failed(reason: refusal.reason), httpStatus: status,
                                                partial: partial, attempts: context.attempt, isFinal: true,
                                                finalURL: context.request.url),
                                again: .no)
            }
        }
        var classification = classify(context, code: code, status: status)
        if status == 401 || status == 403, case .failed(let reason) = classification.result, !context.request.carriesCredentials,
           !configuration.headers.isEmpty || configuration.cookieFile != nil {
            // The user gave credentials, and they were held back on purpose: say so, or a 403 from a
            // CDN a redirect led to reads like a wrong token.
            classification.result = .failed(reason: reason + " (--header and --cookies go to \(context.request.credentialScope.origin) only, "
                                            + "not to \(context.request.url.origin), where a redirect or a playlist led)")
        }
        var partial: TransferOutcome.Partial?
        switch classification.result {
        case .completed, .captured:
            break
        case .tooLarge:
            // Nothing of a dropped item stays.
            _ = context.settle(keep: false)
        default:
            partial = context.settle(keep: classification.keep)
        }
        logger.debug("transfer ended", metadata: [
            "key": "\(context.request.id)", "result": "\(Self.describe(classification.result))", "status": "\(status)",
            "bodyBytes": "\(context.bodyBytes)", "resumedFrom": "\(context.baseOffset)", "attempt": "\(context.attempt)",
        ])
        var outcome = TransferOutcome(
            id: context.request.id, result: classification.result, httpStatus: status == 0 ? nil : status,
            bodyBytesReceived: context.bodyBytes, etag: context.etag, lastModified: context.lastModified,
            contentType: context.effectiveContentType, partial: partial, attempts: context.attempt,
            retryAfterSeconds: context.retryAfterSeconds, isFinal: classification.isFinal, finalURL: context.request.url)
        outcome.isDASHManifest = context.verdict == .dashManifest
        return .outcome(outcome, again: classification.again)
    }

    /// Why a redirect is not followed.
    private struct RedirectRefusal: Error {
        let reason: String
    }

    /// The next hop of a redirect, checked as libcurl would check it and more: http and https
    /// only, what began over https stays on https (a redirect to http would hand the body to
    /// anyone on the path), and at most `maximumRedirects` hops.
    private func redirect(_ context: TransferContext, to target: String) -> Result<TransferRequest, RedirectRefusal> {
        let request = context.request
        guard request.redirects < configuration.maximumRedirects else {
            return .failure(RedirectRefusal(reason: "more than \(configuration.maximumRedirects) redirects"))
        }
        let next: MediaURL
        do {
            next = try MediaURL(target)
        } catch {
            let shown = UntrustedText.sanitized(target, limit: 200, replacingControlsWith: "?")
            if request.originalURL.isHTTPS, case .unsupportedScheme = error {
                return .failure(RedirectRefusal(reason: "redirected from https to a URL that is not https (\(shown))"))
            }
            if case .unsupportedScheme = error {
                return .failure(RedirectRefusal(reason: "redirected to a URL that is not http or https (\(shown))"))
            }
            return .failure(RedirectRefusal(reason: "redirected to a URL that cannot be fetched (\(shown)): \(error)"))
        }
        if request.originalURL.isHTTPS && !next.isHTTPS {
            return .failure(RedirectRefusal(reason: "redirected from https to a URL that is not https (\(next.redacted))"))
        }
        return .success(request.redirected(to: next))
    }

    private func classify(_ context: TransferContext, code: CURLcode, status: Int) -> Classification {
        if status == 416, context.request.resume != nil, code == CURLE_OK || code == CURLE_WRITE_ERROR {
            // The kept bytes reach past the file's end as the server now has it: they are not
            // part of it, and it is asked for whole.
            return Classification(result: .failed(reason: "the server refused to resume (HTTP 416)"), again: .later, keep: false)
        }
        switch code {
        case CURLE_OK:
            guard (200..<300).contains(status) else { return Self.classify(status: status) }
            if status == 204 {
                return Classification(result: .failed(reason: "the server answered 204 No Content: there is nothing to download"),
                                      keep: false)
            }
            // An encoded body's Content-Length counts the encoded bytes, not the ones written.
            if let length = context.contentLength, length != context.bodyBytes, !context.encoded {
                return Classification(result: .failed(reason: "the body has \(context.bodyBytes) bytes, Content-Length said \(length)"),
                                      keep: false)
            }
            if let abort = context.finishBody() {
                return Self.classify(abort, context: context)
            }
            if let slice = context.request.slice {
                // Its Content-Range was checked to be the slice when the headers ended.
                guard context.bodyBytes == slice.length else {
                    return Classification(
                        result: .failed(reason: "the connection closed after \(context.bodyBytes) of the \(slice.length) bytes of the range asked"),
                        again: .later, keep: false)
                }
                // A document's slice (a DASH segment index) went to memory.
                return Classification(result: context.isCaptured ? .captured(context.captured) : .completed(bytes: context.fileBytes))
            }
            if status == 206, let end = context.rangeEnd, context.fileBytes != end + 1 {
                // Without a Content-Length, libcurl takes the connection's end for the body's.
                return Classification(
                    result: .failed(reason: "the connection closed after \(context.bodyBytes) of the \(end + 1 - context.baseOffset) bytes its Content-Range names"),
                    again: .later)
            }
            if status == 206, let total = context.rangeTotal ?? context.request.resume?.total, context.fileBytes != total {
                guard context.fileBytes < total else {
                    return Classification(result: .failed(reason: "the server sent \(context.fileBytes) bytes of a \(total)-byte file"),
                                          keep: false)
                }
                // Honest about what it sent, but not all of it: the bytes are good, and the rest
                // is asked for again, at once when the answer was worth a request (64 KiB, or an
                // eighth of what was missing); a server that sends a few bytes each time waits its
                // turn like any failure, or it would get hundreds of requests a second.
                let worthIt = context.bodyBytes >= 64 * 1024 || context.bodyBytes * 8 >= total - context.baseOffset
                return Classification(
                    result: .failed(reason: "the server sent bytes \(context.baseOffset)-\(context.fileBytes - 1) of \(total), not the rest"),
                    again: worthIt ? .now : .later)
            }
            if context.isCaptured {
                return Classification(result: .captured(context.captured))
            }
            return Classification(result: .completed(bytes: context.fileBytes))
        case CURLE_WRITE_ERROR:
            guard let abort = context.abort else {
                return Classification(result: .failed(reason: describe(context, code: code)))
            }
            return Self.classify(abort, context: context)
        case CURLE_PARTIAL_FILE:
            let expected = context.contentLength.map { " of \($0)" } ?? ""
            return Classification(result: .failed(reason: "the connection closed after \(context.bodyBytes)\(expected) bytes"),
                                  again: .later)
        case CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return Classification(result: .failed(reason: describe(context, code: code)), again: .later)
        case CURLE_OPERATION_TIMEDOUT:
            if let reason = unreachableReason(context) {
                // Not retried: waiting out the same silence again would cost the same seconds.
                return Classification(result: .failed(reason: reason))
            }
            return Classification(result: .timedOut(reason: describe(context, code: code)))
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_CERTPROBLEM, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            // Fetching again meets the same URL and the same certificate.
            return Classification(result: .failed(reason: describe(context, code: code)), isFinal: true)
        default:
            return Classification(result: .failed(reason: describe(context, code: code)))
        }
    }

    /// An error status: 408, 429 and 5xx may pass, so they are retried and temporary; other
    /// 4xx are the same next time (a 404, a 403 for an expired signed URL).
    private static func classify(status: Int) -> Classification {
        let reason = "the server answered HTTP \(status)"
        if status == 408 || status == 425 || status == 429 || (500...599).contains(status) {
            return Classification(result: .failed(reason: reason), again: .later)
        }
        return Classification(result: .failed(reason: reason), isFinal: (400...499).contains(status))
    }

    private static func classify(_ abort: TransferContext.Abort, context: TransferContext) -> Classification {
        switch abort {
        case .httpStatus(let status):
            return classify(status: status)
        case .tooLarge:
            // An encoded body's Content-Length is the compressed size, not the file's: a gzip bomb
            // of 1 MB is not "1 MB, over the limit".
            return Classification(result: .tooLarge(declaredSize: context.encoded ? nil : context.declaredTotal ?? context.contentLength))
        case .fileError(let text):
            // A full disk needs its space back.
            return Classification(result: .failed(reason: "cannot write the file: \(text)"), keep: false)
        case .badRange(let text):
            // A server that resumed at the wrong byte cannot be trusted with this file.
            return Classification(result: .failed(reason: text), keep: false)
        case .noRoom:
            // Its bytes go, to give the room back; freeing space makes a later delivery succeed.
            let size = context.encoded ? nil : context.declaredLength
            return Classification(result: .failed(reason: context.request.room?.refusal(size: size) ?? "no room left on the disk"), keep: false)
        case .noSpace(let needed, let free, let capacity):
            // Larger than the whole file system, it never fits: said so, and not tried again.
            if let capacity, needed > capacity {
                return Classification(result: .failed(reason: "not fetched: its \(ByteSize.format(needed)) are more than the whole disk "
                                                      + "holds (\(ByteSize.format(capacity)))"), isFinal: true, keep: false)
            }
            let room = free.map { ", which has \(ByteSize.format($0)) free" } ?? ""
            return Classification(result: .failed(reason: "not fetched: its \(ByteSize.format(needed)) do not fit on the disk\(room)"),
                                  keep: false)
        case .rejected(let text, let isFinal):
            // Judged before a byte of it reached the file: bytes an earlier response kept (a login
            // page answering the resume of a cut video) are still the video's, and stay.
            return Classification(result: .failed(reason: text), isFinal: isFinal, keep: true)
        }
    }

    /// A result for the debug log, without a captured body's bytes.
    private static func describe(_ result: TransferOutcome.Result) -> String {
        if case .captured(let data) = result { return "captured(\(data.count) bytes)" }
        return "\(result)"
    }

    private func describe(_ context: TransferContext, code: CURLcode) -> String {
        let detail = context.curlMessage
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }
}

/// A transfer handed to libcurl, or the outcome of one libcurl would not take.
private enum Start {
    case running(TransferContext)
    case refused(TransferOutcome)
}

/// libcurl's write callback: a C function pointer, so it captures nothing and finds its transfer
/// through `CURLOPT_WRITEDATA`.
private let transferWriteCallback: curl_write_callback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
    return context.write(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// libcurl's header callback, found the same way.
private let transferHeaderCallback: curl_write_callback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
    return context.header(UnsafeRawBufferPointer(start: data, count: size * count))
}
