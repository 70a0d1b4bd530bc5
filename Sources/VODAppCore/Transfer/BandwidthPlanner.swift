/// Budget-aware scheduling: when the link cannot carry every remaining byte before the deadline,
/// the transfers that can still finish get it, smallest remaining first, and the others are set
/// aside, their bytes kept, to resume with `Range` if time allows or in the next delivery.
///
/// On one shared bottleneck, smallest-remaining-first finishes the most items by any deadline;
/// all at once, every item crawls and few finish. When everything fits, nothing is set aside, so
/// a fast link is filled exactly as before. Set-aside transfers are closed, not paused: a paused
/// libcurl transfer still lets its server fill the buffers between them, which takes the link.
/// If setting transfers aside does not raise the others' speed (each transfer has its own limit,
/// so the link is not shared), the planner gives up for the run and restores them.
struct BandwidthPlanner {
    enum Decision {
        case keep
        /// Close these, keeping their bytes.
        case setAside([TransferContext])
        /// Start this many of the set-aside transfers again, smallest remaining first.
        case restore(Int)
    }

    private let enabled: Bool
    private var disabled = false
    private var samples: [(at: ContinuousClock.Instant, bytes: Int64)] = []
    private var lastPlan: ContinuousClock.Instant?
    private var finishedBytes: Int64 = 0
    /// The rate seen while nothing was set aside, to tell whether setting aside helps.
    private var rateWhole: Double?
    private var asideSince: ContinuousClock.Instant?

    static let interval: Duration = .milliseconds(250)
    static let window: Duration = .milliseconds(1500)
    static let minimumHistory: Duration = .milliseconds(500)
    /// Transfers kept running when not everything can finish: a few fill a link as well as many.
    static let runningWhenShort = 3

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Counts a finished or set-aside transfer's bytes in the link's rate.
    mutating func ended(_ context: TransferContext) {
        finishedBytes += context.bodyBytes
    }

    /// What to do for the time left before `deadline`.
    /// - Parameter asideRemaining: the remaining bytes of the set-aside transfers, smallest first.
    mutating func plan(_ active: [TransferContext], asideRemaining: [Int64], deadline: ContinuousClock.Instant,
                       now: ContinuousClock.Instant = .now) -> Decision {
        guard enabled else { return .keep }
        if disabled { return asideRemaining.isEmpty ? .keep : .restore(asideRemaining.count) }
        if let lastPlan, lastPlan.duration(to: now) < Self.interval { return .keep }
        lastPlan = now
        let total = finishedBytes + active.reduce(0) { $0 + $1.bodyBytes }
        samples.append((now, total))
        samples.removeAll { $0.at.duration(to: now) > Self.window }
        guard let oldest = samples.first, oldest.at.duration(to: now) >= Self.minimumHistory else { return .keep }
        let rate = Double(total - oldest.bytes) / oldest.at.duration(to: now).inSeconds
        if asideRemaining.isEmpty {
            rateWhole = rate
            asideSince = nil
        } else if let asideSince, asideSince.duration(to: now) >= Self.window, let rateWhole, rate < rateWhole * 0.5 {
            // Setting transfers aside lost bandwidth instead of moving it: they were not sharing
            // one link.
            disabled = true
            return .restore(asideRemaining.count)
        }
        guard rate > 0 else { return .keep }

        let capacity = rate * now.duration(to: deadline).inSeconds
        let sized = active.filter { $0.receivingBody }
        let known = sized.compactMap { context in context.remainingBytes.map { (context, $0) } }.sorted { $0.1 < $1.1 }
        let unknownCount = sized.count - known.count
        let activeRemaining = known.reduce(0.0) { $0 + Double($1.1) }

        if !asideRemaining.isEmpty {
            let allRemaining = activeRemaining + asideRemaining.reduce(0.0) { $0 + Double($1) }
            if unknownCount == 0 && allRemaining <= capacity { return .restore(asideRemaining.count) }
            if active.count < Self.runningWhenShort {
                return .restore(min(asideRemaining.count, Self.runningWhenShort - active.count))
            }
            return .keep
        }
        guard unknownCount > 0 || activeRemaining > capacity, sized.count > Self.runningWhenShort else { return .keep }
        // Keep the smallest that fit (at least one, at most a few); set the rest aside.
        var kept: Set<ObjectIdentifier> = []
        var booked = 0.0
        for (context, remaining) in known.prefix(Self.runningWhenShort) where kept.isEmpty || booked + Double(remaining) <= capacity {
            kept.insert(ObjectIdentifier(context))
            booked += Double(remaining)
        }
        asideSince = now
        return .setAside(sized.filter { !kept.contains(ObjectIdentifier($0)) })
    }
}
