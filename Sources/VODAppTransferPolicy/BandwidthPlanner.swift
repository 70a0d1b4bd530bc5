/// Budget-aware scheduling: when the link cannot carry every remaining byte before the deadline,
/// the transfers that can still finish get it, smallest remaining first, and the others are set
/// aside, their bytes kept, to resume with `Range` if time allows or in the next delivery.
///
/// On one shared bottleneck, running the smallest remaining item alone finishes the most items by
/// any deadline: sharing the link among three makes each crawl, and the first finishes three times
/// later. So while not everything fits, only `width` transfers run, one at first, and one more
/// only while adding one raised the total rate (a link that one connection cannot fill). When
/// everything fits, nothing is set aside, so a fast link is filled exactly as before. Set-aside
/// transfers are closed, not paused: a paused libcurl transfer still lets its server fill the
/// buffers between them, which takes the link. If setting transfers aside does not raise the
/// others' speed (each transfer has its own limit, so the link is not shared), the planner gives
/// up for the run and restores them.
///
/// Every new connection's first bytes come in a burst (socket buffers, a server's first write),
/// faster than the link: the rate seen while all transfers start together is not the link's.
/// So the rate with everything running counts only once each transfer has received for `settle`,
/// and the planner waits for it before setting anything aside. When transfers starting one after
/// another keep it from being known, the planner tells a shared link from transfers with limits
/// of their own by growing the width instead: rising with every transfer added up to the widest,
/// the rate was never one link's.
///
/// A pure value: it reads no clock and touches no transfer. The engine describes its transfers
/// (`Transfer`, `Waiting`), the bytes received so far and the instant; tests feed it a simulated
/// link.
package struct BandwidthPlanner: Sendable {
    /// A running transfer, as the planner sees it.
    package struct Transfer: Sendable, Equatable {
        package let id: String
        /// Body bytes still to come; nil when the response did not say.
        package var remaining: Int64?
        /// Whether its headers are in and its body is arriving: only then is its size known.
        package var receivingBody: Bool

        package init(id: String, remaining: Int64?, receivingBody: Bool) {
            self.id = id
            self.remaining = remaining
            self.receivingBody = receivingBody
        }
    }

    /// A set-aside transfer.
    package struct Waiting: Sendable, Equatable {
        package let id: String
        /// Body bytes still to come; `Int64.max` when unknown.
        package let remaining: Int64

        package init(id: String, remaining: Int64) {
            self.id = id
            self.remaining = remaining
        }
    }

    /// What the engine does now.
    package struct Decision: Sendable, Equatable {
        /// Close these running transfers, keeping their bytes.
        package var setAside: [String] = []
        /// Start these set-aside transfers again.
        package var restore: [String] = []

        package static let keep = Decision()
    }

    private let enabled: Bool
    private var disabled = false
    /// The run's body bytes so far, sampled every `interval`.
    private var samples: [(at: ContinuousClock.Instant, bytes: Int64)] = []
    /// The link's rate over the latest window, once there is enough history.
    private var rate: Double?
    /// Whether transfers are being held to `width` because not everything fits.
    private var short = false
    /// Transfers run at once while not everything fits.
    package private(set) var width = 1
    /// When `width` last changed: a width is judged on the rate since, not before.
    private var changedAt: ContinuousClock.Instant?
    /// The rate, and the transfers receiving, while everything ran.
    private var whole: (rate: Double, count: Int)?
    /// The rate at the width before the latest growth: growing again needs more than it.
    private var rateBeforeGrowth: Double?
    /// False once growing did not raise the rate.
    private var mayGrow = true
    /// Restored transfers whose headers are not in yet, with what they had left: they hold
    /// their place in `width` meanwhile.
    private var restoring: [String: Int64] = [:]
    /// When each running transfer's body began, as the planner first saw it receiving.
    private var bodyBegan: [String: ContinuousClock.Instant] = [:]
    /// When the link first looked short while the rate with everything running was not known yet.
    private var shortBeforeKnown: ContinuousClock.Instant?
    /// The rate when the link last became short: what the transfers running then carried
    /// together, the measure of one transfer alone when `whole` is not known.
    private var rateWhenShort: Double?

    package static let interval: Duration = .milliseconds(250)
    package static let window: Duration = .milliseconds(1500)
    package static let minimumHistory: Duration = .milliseconds(500)
    /// The most transfers run at once while not everything fits: on one bottleneck, a few fill a
    /// link as well as many.
    package static let widest = 4
    /// Set-aside transfers come back only when everything fits in this share of the capacity, so
    /// that a rate at the edge does not close and reopen transfers in turn.
    package static let restoreMargin = 0.8
    /// The share of the rate seen with everything running that counts as the link filled. Below
    /// it, one more transfer is tried. Not nearer 1: a start's burst (a TCP window, a server's
    /// first chunk) makes the rate with everything running look higher than the link is.
    package static let filled = 0.75
    /// How much one more transfer must raise the rate to stay: more than a new connection's own
    /// first burst.
    package static let gain = 1.2
    /// How long after a transfer's body begins its start-up burst is taken to be over.
    package static let settle: Duration = .milliseconds(250)

    package init(enabled: Bool) {
        self.enabled = enabled
    }

    /// What to do for the time left before `deadline`.
    /// - Parameters:
    ///   - active: the transfers running now.
    ///   - aside: the set-aside transfers.
    ///   - transferred: every body byte the run has received so far, ended transfers included.
    package mutating func plan(_ active: [Transfer], aside: [Waiting], transferred: Int64,
                       deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Decision {
        guard enabled else { return .keep }
        if disabled { return Decision(restore: aside.map(\.id)) }
        restoring = restoring.filter { entry in active.contains { $0.id == entry.key && !$0.receivingBody } }
        let sized = active.filter(\.receivingBody)
        bodyBegan = bodyBegan.filter { entry in sized.contains { $0.id == entry.key } }
        for transfer in sized where bodyBegan[transfer.id] == nil { bodyBegan[transfer.id] = now }
        // What holds a place in `width`: transfers receiving, and restored ones on their way.
        let occupants = sized.map { Waiting(id: $0.id, remaining: $0.remaining ?? .max) }
            + restoring.sorted { $0.key < $1.key }.map { Waiting(id: $0.key, remaining: $0.value) }

        if samples.last.map({ $0.at.duration(to: now) >= Self.interval }) ?? true {
            samples.append((now, transferred))
            samples.removeAll { $0.at.duration(to: now) > Self.window }
            rate = Self.rate(samples)
            if let rate, short, !aside.isEmpty,
               let verdict = judgeWidth(running: occupants.count, candidates: occupants.count + aside.count, now: now, rate: rate) {
                guard verdict else {
                    // Setting transfers aside lost bandwidth instead of moving it: they were not
                    // sharing one link.
                    disabled = true
                    return Decision(restore: aside.map(\.id))
                }
            }
        }
        guard let rate, rate > 0 else { return .keep }
        if !short && aside.isEmpty, let settledSince = bodyBegan.values.max().map({ $0 + Self.settle }),
           let settled = Self.rate(samples.filter { $0.at >= settledSince }) {
            // Past every transfer's start-up burst: the link's own rate with all of them running.
            whole = (settled, sized.count)
        }

        let capacity = rate * now.duration(to: deadline).inSeconds
        let candidates = occupants + aside
        let unknown = candidates.contains { $0.remaining == .max }
        let needed = candidates.reduce(0.0) { $0 + Double($1.remaining) }
        if !unknown && needed <= capacity * (aside.isEmpty ? 1 : Self.restoreMargin) {
            // Everything fits: everything runs.
            short = false
            if aside.isEmpty { return .keep }
            for entry in aside { restoring[entry.id] = entry.remaining }
            changedAt = now
            return Decision(restore: aside.map(\.id))
        }
        if !short {
            guard candidates.count > width else { return .keep }
            // Not until the rate with everything running is known past the bursts (a fraction of
            // a second more of sharing), unless transfers starting one after another keep it
            // from being known: then growing the width tells.
            if whole == nil {
                let since = shortBeforeKnown ?? now
                shortBeforeKnown = since
                if since.duration(to: now) < Self.settle + Self.minimumHistory { return .keep }
            }
            short = true
            changedAt = now
            rateWhenShort = rate
            rateBeforeGrowth = nil
        }
        // Run the `width` smallest; set the rest aside. Running ones come first among equals, so
        // that a tie does not swap a transfer for another.
        let ordered = candidates.enumerated().sorted { ($0.element.remaining, $0.offset) < ($1.element.remaining, $1.offset) }
        let chosen = Set(ordered.prefix(width).map(\.element.id))
        let decision = Decision(setAside: sized.map(\.id).filter { !chosen.contains($0) },
                                restore: aside.map(\.id).filter { chosen.contains($0) })
        for entry in aside where chosen.contains(entry.id) { restoring[entry.id] = entry.remaining }
        return decision
    }

    /// Whether the width holds up, once it has run long enough to tell, growing it when that
    /// should raise the rate; false when setting aside did not make the others faster at all.
    private mutating func judgeWidth(running: Int, candidates: Int, now: ContinuousClock.Instant, rate: Double) -> Bool? {
        // The first interval after a change is not the new width's: what the closed transfers
        // had in flight still drains through the link.
        guard let changedAt, changedAt.duration(to: now) >= Self.minimumHistory + Self.interval,
              let settled = Self.rate(Self.sinceStall(samples.filter { $0.at >= changedAt + Self.interval })), running > 0
        else { return nil }
        guard let whole else { return judgeGrowth(settled: settled, candidates: candidates, now: now) }
        guard whole.count > 1 else { return nil }
        // Each transfer got no more than when all ran: they do not share one link.
        if running < whole.count, settled / Double(running) < 1.5 * whole.rate / Double(whole.count) { return false }
        if let before = rateBeforeGrowth, !keptGrowth(from: before, settled: settled, now: now) { return true }
        guard mayGrow, settled < Self.filled * whole.rate, width < min(Self.widest, whole.count) else { return true }
        grow(from: settled, now: now)
        return true
    }

    /// After the width grew: whether the one more transfer raised the rate by `gain`. If not,
    /// the width before was as good: it goes back, and grows no more this run.
    private mutating func keptGrowth(from before: Double, settled: Double, now: ContinuousClock.Instant) -> Bool {
        rateBeforeGrowth = nil
        guard settled >= before * Self.gain else {
            mayGrow = false
            width = max(1, width - 1)
            changedAt = now
            return false
        }
        return true
    }

    /// One more transfer runs; the rate before it is what it must raise.
    private mutating func grow(from settled: Double, now: ContinuousClock.Instant) {
        rateBeforeGrowth = settled
        width += 1
        changedAt = now
    }

    /// The width judged by growing it alone, when the link was short before the rate with
    /// everything running could be seen past the start-up bursts: one more transfer stays while
    /// it raises the rate. Rising up to the widest, the transfers were not sharing one link:
    /// false, and everything runs.
    ///
    /// The first step is tried only when the width carries less than `filled` of what the
    /// transfers running when the link became short carried together: a rate measured just after
    /// the others were closed is low for a while, and one more transfer then looked like a gain
    /// (a shared 2 MiB/s grew to three transfers).
    private mutating func judgeGrowth(settled: Double, candidates: Int, now: ContinuousClock.Instant) -> Bool {
        let widest = min(Self.widest, candidates)
        if let before = rateBeforeGrowth {
            guard keptGrowth(from: before, settled: settled, now: now) else { return true }
            if width >= widest { return false }
        } else if settled >= Self.filled * (rateWhenShort ?? .infinity) {
            return true
        }
        guard mayGrow, width < widest else { return true }
        grow(from: settled, now: now)
        return true
    }

    /// `samples` from the last one at which nothing had arrived since the one before. A stall (a
    /// TCP retransmission timeout, after the closed transfers' losses on a shaped link) says
    /// nothing of the width: judged across one, a transfer alone on a shared link looked as if it
    /// had a limit of its own, and the planner restored everything (`Benchmarks/shaped.py`).
    private static func sinceStall(_ samples: [(at: ContinuousClock.Instant, bytes: Int64)]) -> [(at: ContinuousClock.Instant, bytes: Int64)] {
        guard let stalled = samples.indices.dropFirst().last(where: { samples[$0].bytes == samples[$0 - 1].bytes }) else { return samples }
        return Array(samples[stalled...])
    }

    /// Bytes per second between the first and last sample, when they span `minimumHistory`.
    private static func rate(_ samples: [(at: ContinuousClock.Instant, bytes: Int64)]) -> Double? {
        guard let first = samples.first, let last = samples.last, first.at.duration(to: last.at) >= minimumHistory else { return nil }
        return Double(last.bytes - first.bytes) / first.at.duration(to: last.at).inSeconds
    }
}
