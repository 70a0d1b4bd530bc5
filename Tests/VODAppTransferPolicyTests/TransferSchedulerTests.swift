import Logging
import Synchronization
import Testing
import VODAppModel
import VODAppTransferPolicy
import VODAppTransferPolicy

/// The run's policy as a value: the engine's events are made up here (a transfer ended so, the
/// turn's instant is this), and what the scheduler answers is what the engine would do. No
/// socket, no clock, no random number.
@Suite struct TransferSchedulerTests {
    static let start = ContinuousClock.now
    static let mebibyte: Int64 = 1 << 20

    static func request(_ id: String, host: String = "a.example", resume: TransferRequest.Resume? = nil) -> TransferRequest {
        // swiftlint:disable:next force_try
        TransferRequest(id: id, url: try! MediaURL("http://\(host)/\(id).mp4"), temporaryPath: "/nonexistent/\(id).part",
                        maximumSize: 20 * mebibyte, resume: resume)
    }

    /// A scheduler as the engine's loop holds it; a reference, so that `#expect` can ask it.
    final class Run {
        var scheduler: TransferScheduler

        init(_ scheduler: TransferScheduler) { self.scheduler = scheduler }

        /// Every request that can start now, as the engine's loop takes them.
        func starts() -> [TransferScheduler.Entry] {
            var started: [TransferScheduler.Entry] = []
            while let next = scheduler.nextStart() { started.append(next) }
            return started
        }

        func canStartNow() -> Bool { scheduler.canStartNow() }
    }

    static func run(_ requests: [TransferRequest], jobs: Int = 16, perHost: Int = 6, budgetAware: Bool = false,
                    seconds: Int = 30, followUp: (any TransferFollowUp)? = nil) -> Run {
        Run(TransferScheduler(requests, jobs: jobs, perHost: perHost, budgetAware: budgetAware, deadline: start + .seconds(seconds),
                              jitter: { 1 }, followUp: followUp, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }))
    }

    static func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    static func failure(_ id: String, _ reason: String = "the server answered HTTP 503", partial: TransferOutcome.Partial? = nil,
                        attempts: Int = 1, retryAfter: Double? = nil) -> TransferScheduler.Ending {
        .outcome(TransferOutcome(id: id, result: .failed(reason: reason), httpStatus: 503, partial: partial, attempts: attempts,
                                 retryAfterSeconds: retryAfter), again: .later)
    }

    static func completed(_ id: String) -> TransferScheduler.Ending {
        .outcome(TransferOutcome(id: id, result: .completed(bytes: 1000), httpStatus: 200), again: .no)
    }

    // MARK: Slots

    @Test func atMostJobsRunAndAnEndFreesASlotForTheNextInOrder() {
        let run = Self.run((1...5).map { Self.request("\($0)", host: "h\($0).example") }, jobs: 2)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        #expect(run.starts().map(\.request.id) == ["1", "2"])
        #expect(!run.canStartNow())
        _ = run.scheduler.ended("1", Self.completed("1"), now: Self.at(10))
        #expect(run.canStartNow())
        #expect(run.starts().map(\.request.id) == ["3"])
    }

    @Test func oneHostHoldsAtMostPerHostSlotsWhileAnotherHostsRequestStarts() {
        let requests = (1...8).map { Self.request("a\($0)") } + [Self.request("b1", host: "b.example")]
        let run = Self.run(requests, jobs: 16, perHost: 6)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        #expect(run.starts().map(\.request.id) == ["a1", "a2", "a3", "a4", "a5", "a6", "b1"])
        _ = run.scheduler.ended("a2", Self.completed("a2"), now: Self.at(5))
        #expect(run.starts().map(\.request.id) == ["a7"])
    }

    // MARK: Retries

    @Test func aFailureWorthAnotherTryWaitsItsBackoffThenGoesFirstAsTheNextAttempt() {
        let run = Self.run([Self.request("x"), Self.request("y")], jobs: 1)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        #expect(run.starts().map(\.request.id) == ["x"])
        _ = run.scheduler.ended("x", Self.failure("x"), now: Self.at(100))
        // The first backoff is 250 ms: until then the engine may wait that long, and y runs.
        #expect(run.scheduler.wait(now: Self.at(100)) == .milliseconds(250))
        #expect(run.starts().map(\.request.id) == ["y"])
        _ = run.scheduler.ended("y", Self.completed("y"), now: Self.at(200))
        _ = run.scheduler.turn(now: Self.at(349), withdrawn: [])
        #expect(run.starts().isEmpty)
        #expect(!run.scheduler.isIdle)
        _ = run.scheduler.turn(now: Self.at(350), withdrawn: [])
        let retry = run.starts()
        #expect(retry.map(\.request.id) == ["x"])
        #expect(retry.map(\.attempt) == [2])
        _ = run.scheduler.ended("x", Self.completed("x"), now: Self.at(400))
        #expect(run.scheduler.isIdle)
        #expect(run.scheduler.result.map(\.result) == [.completed(bytes: 1000), .completed(bytes: 1000)])
    }

    @Test func aRetryResumesFromWhatTheFailedAttemptKeptUnderItsValidator() throws {
        let run = Self.run([Self.request("x")])
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        _ = run.starts()
        let kept = TransferOutcome.Partial(bytes: 4096, etag: "\"v1\"", lastModified: nil, total: 10_000)
        _ = run.scheduler.ended("x", Self.failure("x", "the connection closed after 4096 of 10000 bytes", partial: kept), now: Self.at(0))
        _ = run.scheduler.turn(now: Self.at(250), withdrawn: [])
        let retry = try #require(run.starts().first)
        #expect(retry.request.resume == TransferRequest.Resume(offset: 4096, validator: "\"v1\"", total: 10_000))
    }

    @Test func aShortAnswerThatBroughtBytesIsAskedForAtOnceWithoutCountingAnAttempt() {
        let run = Self.run([Self.request("x")])
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        _ = run.starts()
        let kept = TransferOutcome.Partial(bytes: 500_000, etag: "\"v1\"", lastModified: nil, total: 1_000_000)
        let short = TransferOutcome(id: "x", result: .failed(reason: "the server sent bytes 0-499999 of 1000000, not the rest"),
                                    httpStatus: 206, partial: kept)
        _ = run.scheduler.ended("x", .outcome(short, again: .now), now: Self.at(10))
        _ = run.scheduler.turn(now: Self.at(10), withdrawn: [])
        let retry = run.starts()
        #expect(retry.map(\.attempt) == [1])
        #expect(retry.first?.request.resume?.offset == 500_000)
    }

    @Test func retriesStopAfterTheSixthAttemptAndTheLastFailureIsTheOutcome() {
        let run = Self.run([Self.request("x")], seconds: 3600)
        var now = 0
        for attempt in 1...6 {
            _ = run.scheduler.turn(now: Self.at(now), withdrawn: [])
            let started = run.starts()
            #expect(started.map(\.attempt) == [attempt])
            _ = run.scheduler.ended("x", Self.failure("x", "the server answered HTTP 503 (\(attempt))", attempts: attempt), now: Self.at(now))
            now += 100_000
        }
        #expect(run.scheduler.isIdle)
        #expect(run.scheduler.result.map(\.result) == [.failed(reason: "the server answered HTTP 503 (6)")])
    }

    @Test func aRetryAfterPastTheDeadlineEndsTheRequestNow() {
        let run = Self.run([Self.request("x")], seconds: 30)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        _ = run.starts()
        _ = run.scheduler.ended("x", Self.failure("x", retryAfter: 60), now: Self.at(1000))
        #expect(run.scheduler.isIdle)
        #expect(run.scheduler.result.map(\.result) == [.failed(reason: "the server answered HTTP 503")])
    }

    @Test func aFinalFailureIsNotRetried() {
        let run = Self.run([Self.request("x")])
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        _ = run.starts()
        let notFound = TransferOutcome(id: "x", result: .failed(reason: "the server answered HTTP 404"), httpStatus: 404, isFinal: true)
        _ = run.scheduler.ended("x", .outcome(notFound, again: .no), now: Self.at(0))
        #expect(run.scheduler.isIdle)
        #expect(run.scheduler.result == [notFound])
    }

    // MARK: Hosts that do not answer

    @Test func aHostThatTookNoConnectionCostsItsOtherRequestsNothingMore() {
        let requests = (1...4).map { Self.request("a\($0)") } + [Self.request("b1", host: "b.example")]
        let run = Self.run(requests, jobs: 1)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        #expect(run.starts().map(\.request.id) == ["a1"])
        let why = "a.example:80 did not accept a connection within 5 s"
        _ = run.scheduler.ended("a1", .outcome(TransferOutcome(id: "a1", result: .failed(reason: why)), again: .no),
                            connection: .unreachable(why), now: Self.at(5000))
        _ = run.scheduler.turn(now: Self.at(5000), withdrawn: [])
        #expect(run.starts().map(\.request.id) == ["b1"])
        _ = run.scheduler.ended("b1", Self.completed("b1"), now: Self.at(5100))
        #expect(run.scheduler.isIdle)
        let results = run.scheduler.result.map(\.result)
        #expect(results == [.failed(reason: why)] + Array(repeating: .failed(reason: why + "; not tried"), count: 3)
            + [.completed(bytes: 1000)])
        #expect(run.scheduler.result[1].attempts == 0)
    }

    @Test func aHostThatRefusedEveryRetryIsGivenUpButOneRefusalIsOnlyRetried() {
        let requests = [Self.request("a1"), Self.request("a2")]
        let run = Self.run(requests, jobs: 1, seconds: 3600)
        let refusal = "Failed to connect to a.example port 80: Connection refused"
        var now = 0
        for attempt in 1...6 {
            _ = run.scheduler.turn(now: Self.at(now), withdrawn: [])
            #expect(run.starts().map(\.request.id) == ["a1"], "attempt \(attempt)")
            _ = run.scheduler.ended("a1", Self.failure("a1", refusal, attempts: attempt), connection: .refused, now: Self.at(now))
            now += 100_000
        }
        _ = run.scheduler.turn(now: Self.at(now), withdrawn: [])
        #expect(run.starts().isEmpty)
        #expect(run.scheduler.isIdle)
        #expect(run.scheduler.result.last?.result == .failed(reason: "a.example:80 refused the connection 6 times; not tried"))
    }

    // MARK: Redirects

    @Test func aRedirectsNextHopGoesFirstAsTheSameAttempt() throws {
        let run = Self.run([Self.request("x"), Self.request("y")], jobs: 1)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        let first = try #require(run.starts().first)
        let hop = first.request.redirected(to: try MediaURL("http://cdn.example/x.mp4"))
        _ = run.scheduler.ended("x", .redirect(hop), now: Self.at(10))
        let next = run.starts()
        #expect(next.map(\.request.url.absoluteString) == ["http://cdn.example/x.mp4"])
        #expect(next.map(\.attempt) == [1])
        #expect(next.first?.request.redirects == 1)
    }

    // MARK: The follow-up

    /// An item whose playlist ("item") brings three segments; a failed segment gives the others
    /// up. What it heard is kept to be asserted.
    final class Segments: TransferFollowUp {
        let heard = Mutex<[String]>([])
        let cutOff = Mutex<[String]>([])
        let withdrawing = Mutex<Set<String>>([])

        func next(after outcome: TransferOutcome) -> (add: [TransferRequest], cancel: Set<String>) {
            heard.withLock { $0.append(outcome.id) }
            if outcome.id == "item" {
                return ((1...3).map { TransferSchedulerTests.request("item/\($0)", host: "cdn.example") }, [])
            }
            if case .failed = outcome.result { return ([], ["item/1", "item/2", "item/3"]) }
            return ([], [])
        }

        func isUnderway(_ id: String) -> Bool { id == "item" && heard.withLock { $0.count } < 4 }
        func cut(_ outcome: TransferOutcome) { cutOff.withLock { $0.append(outcome.id) } }
        func withdrawn() -> Set<String> { withdrawing.withLock { $0 } }
    }

    @Test func theFollowUpsRequestsRunButOnlyTheCallersOutcomesAreKept() {
        let segments = Segments()
        let run = Self.run([Self.request("item")], followUp: segments)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        _ = run.starts()
        _ = run.scheduler.ended("item", .outcome(TransferOutcome(id: "item", result: .captured([1, 2, 3])), again: .no), now: Self.at(1))
        // The playlist has ended, its segments have not: progress does not count it yet.
        #expect(run.scheduler.ended == 0)
        #expect(run.starts().map(\.request.id) == ["item/1", "item/2", "item/3"])
        for id in ["item/1", "item/2", "item/3"] { _ = run.scheduler.ended(id, Self.completed(id), now: Self.at(2)) }
        #expect(run.scheduler.ended == 1)
        #expect(run.scheduler.isIdle)
        #expect(run.scheduler.result.map(\.id) == ["item"])
        #expect(segments.heard.withLock { $0 } == ["item", "item/1", "item/2", "item/3"])
    }

    @Test func whatTheFollowUpCancelsStopsWhereverItIs() {
        let segments = Segments()
        let run = Self.run([Self.request("item")], jobs: 2, followUp: segments)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        _ = run.starts()
        _ = run.scheduler.ended("item", .outcome(TransferOutcome(id: "item", result: .captured([])), again: .no), now: Self.at(1))
        #expect(run.starts().map(\.request.id) == ["item/1", "item/2"])
        // item/1 fails for good: the engine is told to stop item/2, and item/3 never starts.
        let gone = TransferOutcome(id: "item/1", result: .failed(reason: "the server answered HTTP 404"), isFinal: true)
        let stops = run.scheduler.ended("item/1", .outcome(gone, again: .no), now: Self.at(2))
        #expect(stops == ["item/2"])
        #expect(run.starts().isEmpty)
        #expect(run.scheduler.isIdle)
    }

    @Test func whatTheFollowUpWithdrawsBetweenOutcomesStopsAtTheNextTurn() {
        let segments = Segments()
        let run = Self.run([Self.request("item")], followUp: segments)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        _ = run.starts()
        _ = run.scheduler.ended("item", .outcome(TransferOutcome(id: "item", result: .captured([])), again: .no), now: Self.at(1))
        _ = run.starts()
        #expect(run.scheduler.turn(now: Self.at(2), withdrawn: ["item/3"]) == ["item/3"])
        _ = run.scheduler.ended("item/3", Self.completed("item/3"), now: Self.at(3))
        #expect(segments.heard.withLock { $0 } == ["item"], "a stopped transfer's end is not heard")
    }

    // MARK: Cut

    @Test func aCutEndsEveryRequestAndSaysWhatEachWasDoing() throws {
        let requests = [Self.request("running"), Self.request("retrying"), Self.request("waiting"),
                        Self.request("resumable", resume: TransferRequest.Resume(offset: 100, validator: "\"v\"", total: 1000))]
        let run = Self.run(requests, jobs: 2)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        #expect(run.starts().map(\.request.id) == ["running", "retrying"])
        _ = run.scheduler.ended("retrying", Self.failure("retrying", "the server answered HTTP 500"), now: Self.at(0))
        #expect(run.starts().map(\.request.id) == ["waiting"])
        let cutRunning = TransferOutcome(id: "running", result: .timedOut(reason: "the budget ran out after 1.0 MiB"),
                                         httpStatus: 200, bodyBytesReceived: Self.mebibyte)
        let cutWaiting = TransferOutcome(id: "waiting", result: .timedOut(reason: "the budget ran out before the server answered"))
        run.scheduler.cut(because: TransferScheduler.budgetRanOut, running: [cutRunning, cutWaiting])
        #expect(run.scheduler.isIdle)
        let results = Dictionary(uniqueKeysWithValues: run.scheduler.result.map { ($0.id, $0) })
        #expect(results["running"] == cutRunning)
        // A retry cut before any answer keeps the failure that made it a retry.
        #expect(results["retrying"]?.result == .failed(reason: "the server answered HTTP 500"))
        #expect(results["waiting"] == cutWaiting)
        let unstarted = try #require(results["resumable"])
        #expect(unstarted.result == .timedOut(reason: "the budget ran out before the transfer could start"))
        #expect(unstarted.partial?.bytes == 100)
        #expect(unstarted.attempts == 0)
    }

    @Test func aCutTellsTheFollowUpWhatItsRequestsKept() {
        let segments = Segments()
        let run = Self.run([Self.request("item")], jobs: 1, followUp: segments)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        _ = run.starts()
        _ = run.scheduler.ended("item", .outcome(TransferOutcome(id: "item", result: .captured([])), again: .no), now: Self.at(1))
        _ = run.starts()
        run.scheduler.cut(because: "interrupted", running: [TransferOutcome(id: "item/1", result: .timedOut(reason: "interrupted"))])
        #expect(segments.cutOff.withLock { $0 } == ["item/1", "item/2", "item/3"])
        #expect(run.scheduler.result.map(\.id) == ["item"])
    }

    // MARK: The planner

    @Test func aTransferSetAsideResumesWhenRestoredOrSaysWhyItStoppedWhenCut() throws {
        // 4 MiB and 1 MiB over a link of 256 KiB/s with 10 s left: only the smaller fits.
        let run = Self.run([Self.request("big"), Self.request("small")], budgetAware: true, seconds: 10)
        _ = run.scheduler.turn(now: Self.start, withdrawn: [])
        _ = run.starts()
        var setAside: [String] = []
        var bytes: Int64 = 0
        var big: Int64 = 4 * Self.mebibyte
        var small: Int64 = Self.mebibyte
        for step in stride(from: 0, through: 4000, by: 50) where setAside.isEmpty {
            let share = Int64(256 * 1024 / 20) / (setAside.isEmpty ? 2 : 1)
            big -= share
            small -= share
            bytes += 2 * share
            let plan = run.scheduler.plan([TransferScheduler.InFlight(id: "big", remaining: big, receivingBody: true),
                                       TransferScheduler.InFlight(id: "small", remaining: small, receivingBody: true)],
                                      transferred: bytes, now: Self.at(step))
            setAside = plan.setAside
        }
        #expect(setAside == ["big"])
        let kept = TransferOutcome.Partial(bytes: 4 * Self.mebibyte - big, etag: "\"b\"", lastModified: nil, total: 4 * Self.mebibyte)
        run.scheduler.setAside("big", remaining: big, partial: kept)
        #expect(!run.scheduler.isIdle)
        run.scheduler.cut(because: TransferScheduler.budgetRanOut, running: [])
        let outcome = try #require(run.scheduler.result.first)
        #expect(outcome.partial == kept)
        guard case .timedOut(let reason) = outcome.result else {
            Issue.record("\(outcome.result)")
            return
        }
        #expect(reason.hasPrefix("set aside so that smaller items could finish before the budget ran out; "))
        #expect(reason.hasSuffix("of 4.0 MiB kept to resume"))
    }
}
