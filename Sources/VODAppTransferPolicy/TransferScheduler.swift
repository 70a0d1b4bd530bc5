import Logging
import VODAppBase

/// The policy of one run of transfers, as a value: which request starts next, which is retried
/// and when, which host is given up for the run, which transfers the planner sets aside, and what
/// each request's outcome is when the run ends or is cut.
///
/// It reads no clock, draws no random number it was not given, and touches no libcurl handle:
/// `TransferEngine` tells it what happened (a transfer ended, the turn's instant, what is in
/// flight, the run is cut) and does what it answers (start this request, stop those transfers).
/// Tests drive it with made-up outcomes and instants.
///
/// The follow-up (an HLS item's playlists and segments) hears each final outcome from here, and
/// what it adds or cancels comes back in at once, so that a request it cancels never starts.
package struct TransferScheduler {
    /// A request that is running: what the scheduler needs to retry, redirect or set it aside.
    package typealias Entry = TransferQueue.Entry

    /// Whether to ask again after a transfer that did not complete.
    package enum Again: Sendable, Equatable {
        case no
        /// After a backoff: connection failures and resets, 408, 429, 5xx, a 416 to a resume.
        case later
        /// At once: the answer was good but not all of it (a short 206).
        case now
    }

    /// How a running transfer ended, as the engine read it.
    package enum Ending: Sendable {
        /// An outcome, and whether it is worth asking again.
        case outcome(TransferOutcome, again: Again)
        /// The next hop of a redirect, already checked (`TransferEngine.redirect`).
        case redirect(TransferRequest)
    }

    /// What a transfer's connection showed, beyond its outcome.
    package enum Connection: Sendable, Equatable {
        /// It had one, or failed in a way that says nothing about its host.
        case answered
        /// The host did not take a connection within the connect timeout, for this reason: its
        /// other requests are not tried in this run.
        case unreachable(String)
        /// The host refused the connection (or it was unroutable).
        case refused
    }

    /// A transfer in flight, as the planner sees it.
    package typealias InFlight = BandwidthPlanner.Transfer

    /// A request to try again later.
    private struct Retry {
        let entry: Entry
        let at: ContinuousClock.Instant
    }

    /// A transfer the planner set aside, with what it has left and what it keeps.
    private struct Aside {
        let entry: Entry
        /// Body bytes still to come; `Int64.max` when unknown.
        let remaining: Int64
        let partial: TransferOutcome.Partial?
    }

    /// Why a run is cut at its deadline, as the reasons a person reads begin.
    package static let budgetRanOut = "the budget ran out"

    package let jobs: Int
    package let deadline: ContinuousClock.Instant
    private let retryPolicy: RetryPolicy
    private let jitter: () -> Double
    private let followUp: (any TransferFollowUp)?
    private let logger: Logger

    /// The ids the caller asked for: only their outcomes are kept and returned (those of requests
    /// a follow-up added are heard by it, or thousands of segments would stay in memory), and
    /// progress counts these.
    private let requested: Set<String>
    private let order: [String]
    private var outcomes: [String: TransferOutcome] = [:]
    /// Each host gets at most `perHost` slots: the next waiting request of a host with room
    /// starts, not merely the next waiting request.
    private var waiting: TransferQueue
    private var running: [String: Entry] = [:]
    /// Retries by when they are due; `retrying` holds the ids still wanted, so that a cancelled
    /// one is passed over when it comes out instead of being searched for.
    private var delayed = MinimumHeap<Retry> { $0.at < $1.at }
    private var retrying: Set<String> = []
    /// Set aside by the planner, smallest remaining first.
    private var aside: [Aside] = []
    private var planner: BandwidthPlanner
    private let budgetAware: Bool
    /// Hosts (`host:port`) that did not take a connection, and why: their other requests are not
    /// tried in this run.
    private var unreachable: [String: String] = [:]
    /// Requests of unreachable hosts, to end untried at the top of the next turn.
    private var untried: [Entry] = []
    /// Running transfers the follow-up no longer wants: the engine stops them.
    private var toStop: Set<String> = []

    /// - Parameters:
    ///   - jitter: a factor in `RetryPolicy.jitter` for each backoff; random in a run.
    package init(_ requests: [TransferRequest], jobs: Int, perHost: Int, budgetAware: Bool,
                 deadline: ContinuousClock.Instant, retryPolicy: RetryPolicy = RetryPolicy(),
                 jitter: @escaping () -> Double = { .random(in: RetryPolicy.jitter) },
                 followUp: (any TransferFollowUp)? = nil, logger: Logger) {
        self.jobs = max(1, jobs)
        self.deadline = deadline
        self.retryPolicy = retryPolicy
        self.jitter = jitter
        self.followUp = followUp
        self.logger = logger
        self.budgetAware = budgetAware
        planner = BandwidthPlanner(enabled: budgetAware)
        requested = Set(requests.map(\.id))
        order = requests.map(\.id)
        waiting = TransferQueue(perHost: perHost)
        for request in requests { waiting.append(Entry(request: request, attempt: 1)) }
    }

    // MARK: What the engine asks

    /// Nothing is running, waiting, due for a retry or set aside: the run is over.
    package var isIdle: Bool {
        running.isEmpty && waiting.isEmpty && retrying.isEmpty && aside.isEmpty && untried.isEmpty
    }

    /// The caller's requests that are done, their follow-ups included: what progress counts.
    package var ended: Int {
        outcomes.keys.count { requested.contains($0) && followUp?.isUnderway($0) != true }
    }

    /// A slot is free and a request could take it now: the engine turns again at once instead of
    /// waiting for libcurl.
    package mutating func canStartNow() -> Bool {
        running.count < jobs && (waiting.canStart() || !untried.isEmpty)
    }

    /// How long the engine may wait for libcurl before the scheduler has something to do: the
    /// deadline, the next retry, the planner's next look.
    package func wait(now: ContinuousClock.Instant) -> Duration {
        var wait = now.duration(to: deadline)
        if let next = delayed.first?.at { wait = min(wait, now.duration(to: next)) }
        if budgetAware { wait = min(wait, BandwidthPlanner.interval) }
        return wait
    }

    /// The outcome of each request the caller asked for, in its order.
    package var result: [TransferOutcome] { order.compactMap { outcomes[$0] } }

    // MARK: Events

    /// The top of a turn at `now`: requests the follow-up withdrew go, due retries go to the
    /// front of the line, and the requests of unreachable hosts end untried.
    /// - Returns: running transfers to stop, keeping nothing and with no outcome.
    package mutating func turn(now: ContinuousClock.Instant, withdrawn: Set<String>) -> Set<String> {
        if !withdrawn.isEmpty { drop(withdrawn) }
        while let retry = delayed.first, retry.at <= now {
            _ = delayed.removeFirst()
            if retrying.remove(retry.entry.request.id) != nil { enqueue(retry.entry, inFront: true) }
        }
        // A host that did not take a connection costs its other requests nothing more: they end
        // now, untried, instead of each waiting out its own connect timeout. Ending one may add
        // more (an HLS item's next segments), which end here too.
        while !untried.isEmpty {
            let batch = untried
            untried = []
            for entry in batch {
                let why = unreachable[entry.request.url.endpoint] ?? ""
                conclude(TransferOutcome(id: entry.request.id,
                                         result: .failed(reason: why + (entry.attempt > 1 ? "; not tried again" : "; not tried")),
                                         partial: Self.kept(by: entry.request), attempts: entry.attempt - 1))
            }
        }
        return takeStops()
    }

    /// The next request to start, counted as running until it ends, or nil when no slot is free
    /// or no waiting request's host has room.
    package mutating func nextStart() -> Entry? {
        guard running.count < jobs, let entry = waiting.next() else { return nil }
        running[entry.request.id] = entry
        return entry
    }

    /// libcurl would not take the transfer `nextStart` gave: it ends with `outcome`.
    /// - Returns: running transfers to stop (the follow-up's answer to it).
    package mutating func refused(_ id: String, _ outcome: TransferOutcome) -> Set<String> {
        guard let entry = running.removeValue(forKey: id) else { return [] }
        waiting.ended(entry.request.url)
        conclude(outcome)
        return takeStops()
    }

    /// The running transfer `id` ended at `now`, as `ending` says, its connection as
    /// `connection` says.
    /// - Returns: running transfers to stop (the follow-up's answer to it).
    package mutating func ended(_ id: String, _ ending: Ending, connection: Connection = .answered,
                                now: ContinuousClock.Instant) -> Set<String> {
        guard let entry = running.removeValue(forKey: id) else { return [] }
        waiting.ended(entry.request.url)
        let endpoint = entry.request.url.endpoint
        // Waited out at once: a host that leaves SYNs unanswered for seconds will not answer the
        // next request's in this run either.
        if case .unreachable(let why) = connection { markUnreachable(endpoint, because: why) }
        switch ending {
        case .redirect(let next):
            // Followed here, not by libcurl, so that each hop is checked and the item's headers
            // and cookies stay with its own origin.
            logger.debug("redirected", metadata: ["key": "\(next.id)", "to": "\(next.url.redacted)"])
            enqueue(Entry(request: next, attempt: entry.attempt), inFront: true)
        case .outcome(let outcome, let again):
            if again != .no, let retry = retry(after: outcome, of: entry, immediately: again == .now, now: now) {
                logger.info("retrying", metadata: ["key": "\(id)", "attempt": "\(retry.entry.attempt)",
                                                   "after": "\(now.duration(to: retry.at))", "because": "\(outcome.result.logged)"])
                delayed.insert(retry)
                retrying.insert(id)
                // Kept until the retry ends: if the run is cut first, why it failed says more
                // than that the budget ran out meanwhile.
                if requested.contains(id) { outcomes[id] = outcome }
            } else {
                if connection == .refused, unreachable[endpoint] == nil {
                    // Refused (or unroutable) through every retry: a restart would have been over
                    // by now. Refusals are quick, so one alone is only retried, never this.
                    markUnreachable(endpoint, because: "\(endpoint) refused the connection \(entry.attempt) times")
                }
                conclude(outcome)
            }
        }
        return takeStops()
    }

    /// The planner's look at the transfers in flight (oldest first) at `now`, given the body
    /// bytes of the run so far (`transferred`: in flight, ended and set aside).
    /// - Returns: the running transfers to set aside (the engine closes each, keeping its bytes,
    ///   and calls `setAside`), and whether set-aside requests were restored to the line.
    package mutating func plan(_ inFlight: [InFlight], transferred: Int64,
                               now: ContinuousClock.Instant) -> (setAside: [String], restored: Bool) {
        let decision = planner.plan(
            inFlight,
            aside: aside.map { BandwidthPlanner.Waiting(id: $0.entry.request.id, remaining: $0.remaining) },
            transferred: transferred, deadline: deadline, now: now)
        if !decision.restore.isEmpty {
            let ids = Set(decision.restore)
            for entry in aside.filter({ ids.contains($0.entry.request.id) }).reversed() {
                logger.debug("restored", metadata: ["key": "\(entry.entry.request.id)", "remaining": "\(entry.remaining)"])
                enqueue(entry.entry, inFront: true)
            }
            aside.removeAll { ids.contains($0.entry.request.id) }
        }
        return (decision.setAside.filter { running[$0] != nil }, !decision.restore.isEmpty)
    }

    /// The engine closed the running transfer `id` the planner set aside; it kept `partial`, and
    /// had `remaining` body bytes to come (`Int64.max` when unknown).
    package mutating func setAside(_ id: String, remaining: Int64, partial: TransferOutcome.Partial?) {
        guard let entry = running.removeValue(forKey: id) else { return }
        waiting.ended(entry.request.url)
        aside.append(Aside(entry: Entry(request: entry.request.retried(keeping: partial), attempt: entry.attempt),
                           remaining: remaining, partial: partial))
        aside.sort { $0.remaining < $1.remaining }
        logger.debug("set aside", metadata: ["key": "\(id)", "remaining": "\(remaining)"])
    }

    /// The run is cut (its deadline, a signal) `because`: the engine cut every running transfer,
    /// with these outcomes; everything still waiting ends untried, and what was set aside says so.
    package mutating func cut(because reason: String, running cutOutcomes: [TransferOutcome]) {
        let unstarted = untried + waiting.removeAll()
        untried = []
        running = [:]
        let ends = cutOutcomes + unstarted.map { next in
            TransferOutcome(id: next.request.id, result: .timedOut(reason: "\(reason) before the transfer could start"),
                            partial: Self.kept(by: next.request), attempts: next.attempt - 1)
        }
        for outcome in ends {
            guard requested.contains(outcome.id) else {
                followUp?.cut(outcome)
                continue
            }
            // A retry cut before any answer keeps the failure that made it a retry ("the server
            // answered HTTP 500"): that says more than that the budget ran out.
            if let previous = outcomes[outcome.id], case .failed = previous.result, case .timedOut = outcome.result,
               outcome.httpStatus == nil, outcome.bodyBytesReceived == 0 {
                continue
            }
            outcomes[outcome.id] = outcome
        }
        // A request waiting to be retried keeps the outcome of its last attempt, for the same
        // reason.
        retrying = []
        for entry in aside where requested.contains(entry.entry.request.id) {
            outcomes[entry.entry.request.id] = TransferOutcome(
                id: entry.entry.request.id, result: .timedOut(reason: Self.setAsideReason(entry, cutBecause: reason)),
                httpStatus: 200, partial: entry.partial, attempts: entry.entry.attempt)
        }
        aside = []
    }

    // MARK: Policy

    /// Records an outcome that is final for its request, and lets the follow-up hear it: what it
    /// adds joins the line, what it cancels goes.
    private mutating func conclude(_ outcome: TransferOutcome) {
        if let followUp {
            let next = followUp.next(after: outcome)
            if !next.cancel.isEmpty { drop(next.cancel) }
            for request in next.add { enqueue(Entry(request: request, attempt: 1), inFront: false) }
        }
        if requested.contains(outcome.id) { outcomes[outcome.id] = outcome }
    }

    /// Drops requests the follow-up no longer wants, wherever they are: queued, waiting to be
    /// retried, set aside, or running (a subtitle given up while it dripped held the delivery's
    /// report to the budget's end: attacker trial). They end without an outcome.
    private mutating func drop(_ ids: Set<String>) {
        waiting.cancel(ids)
        retrying.subtract(ids)
        // Once per item that gives up, not per event; and few transfers are aside.
        aside.removeAll { ids.contains($0.entry.request.id) }
        for id in ids {
            guard let entry = running.removeValue(forKey: id) else { continue }
            waiting.ended(entry.request.url)
            toStop.insert(id)
        }
    }

    private mutating func takeStops() -> Set<String> {
        defer { toStop = [] }
        return toStop
    }

    private mutating func enqueue(_ entry: Entry, inFront: Bool) {
        if unreachable[entry.request.url.endpoint] != nil {
            untried.append(entry)
        } else if inFront {
            waiting.prepend(entry)
        } else {
            waiting.append(entry)
        }
    }

    private mutating func markUnreachable(_ endpoint: String, because why: String) {
        guard unreachable[endpoint] == nil else { return }
        unreachable[endpoint] = why
        untried += waiting.removeAll(host: endpoint)
    }

    /// When to try a failed transfer again, by `retryPolicy`.
    /// - Parameter immediately: the last answer was good but short: the rest is asked for now.
    private func retry(after outcome: TransferOutcome, of entry: Entry, immediately: Bool,
                       now: ContinuousClock.Instant) -> Retry? {
        guard case .failed = outcome.result else { return nil }
        let cause: RetryPolicy.Cause = immediately ? .shortAnswer : .failure(retryAfterSeconds: outcome.retryAfterSeconds)
        guard let next = retryPolicy.next(after: entry.attempt, cause: cause, jitter: jitter(), now: now,
                                          deadline: deadline) else { return nil }
        // A short answer that brought bytes is progress, not a failed attempt: the file grows
        // each time, so this ends, at the file's size or the deadline.
        let progressed = immediately && (outcome.partial?.bytes ?? 0) > (entry.request.resume?.offset ?? 0)
        return Retry(entry: Entry(request: entry.request.retried(keeping: outcome.partial),
                                  attempt: progressed ? entry.attempt : entry.attempt + 1),
                     at: next.at)
    }

    /// What a request that never ran still has in its temporary file, from an earlier transfer.
    private static func kept(by request: TransferRequest) -> TransferOutcome.Partial? {
        request.resume.map { TransferOutcome.Partial(bytes: $0.offset, etag: nil, lastModified: nil, total: $0.total) }
    }

    /// What a person reads for a request the planner set aside when the run was cut.
    private static func setAsideReason(_ entry: Aside, cutBecause reason: String) -> String {
        let kept = entry.partial.map { "; " + $0.keptToResume } ?? "; nothing could be kept to resume"
        if reason == budgetRanOut {
            return "set aside so that smaller items could finish before the budget ran out\(kept)"
        }
        return "\(reason) while it was set aside for smaller items\(kept)"
    }
}

extension TransferOutcome.Partial {
    /// In a person's units, as the set-aside reason and the summary count: "2.9 MiB of 8.0 MiB
    /// kept to resume".
    package var keptToResume: String {
        ByteSize.format(bytes) + (total.map { " of \(ByteSize.format($0))" } ?? "") + " kept to resume"
    }
}

extension TransferOutcome.Result {
    /// A result for the log, without a captured body's bytes.
    package var logged: String {
        if case .captured(let data) = self { return "captured(\(data.count) bytes)" }
        return "\(self)"
    }
}
