import Logging
import NIOConcurrencyHelpers
import UnitTestSupport
import VODAppDelivery
import VODAppListen
import VODAppPayload
import VODAppReport

/// Deliveries a test drives in place of the pipeline: each records what the queue handed it and,
/// while the gate is shut, waits for it to open, so that a test can hold the queue's slots busy
/// and see what happens to the pushes behind them, with no network and no timing.
final class HeldDeliveries: Sendable {
    /// A delivery the queue started: the playlist keys it was given, and its ticket.
    struct Started: Sendable {
        let keys: [String]
        let ticket: DeliveryTicket
    }

    private struct State {
        var started: [Started] = []
        var finished = 0
        var open: Bool
        var held: [CheckedContinuation<Void, Never>] = []
    }

    private let state: NIOLockedValueBox<State>

    /// - Parameter open: false holds every delivery until `open()` is called.
    init(open: Bool = true) {
        state = NIOLockedValueBox(State(open: open))
    }

    /// A queue whose deliveries are these.
    func queue(capacity: Int, concurrency: Int, logger: Logger) -> DeliveryQueue {
        DeliveryQueue(capacity: capacity, concurrency: concurrency, logger: logger) { payload, ticket in
            await self.deliver(payload, ticket)
        }
    }

    /// The queue's `deliver`: records the push, waits while the gate is shut, and reports every
    /// item downloaded.
    func deliver(_ payload: Payload, _ ticket: DeliveryTicket) async -> DeliveryReport {
        state.withLockedValue { $0.started.append(Started(keys: payload.items.map(\.key), ticket: ticket)) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = state.withLockedValue { state in
                if !state.open { state.held.append(continuation) }
                return !state.open
            }
            if !wait { continuation.resume() }
        }
        state.withLockedValue { $0.finished += 1 }
        return Self.report(for: payload)
    }

    /// The report `deliver` gives for `payload`.
    static func report(for payload: Payload) -> DeliveryReport {
        DeliveryReport(
            elapsed: .milliseconds(1), budget: .seconds(30), directory: "/held",
            items: payload.items.map { ItemReport(key: $0.key, title: $0.title, url: $0.urlString, status: .downloaded, bytes: 1) },
            notification: .notShown("held deliveries raise none")
        )
    }

    /// Lets every held delivery, and every later one, finish.
    func open() {
        let held = state.withLockedValue { state in
            state.open = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    var started: [Started] { state.withLockedValue { $0.started } }
    var finished: Int { state.withLockedValue { $0.finished } }

    /// Waits until `count` deliveries have started.
    func waitForStarts(_ count: Int) async throws {
        try await waitUntil("\(count) deliveries to start", detail: { ", \(self.started.count) did" }) { started.count >= count }
    }

    /// Waits until `count` deliveries have finished.
    func waitForFinishes(_ count: Int) async throws {
        try await waitUntil("\(count) deliveries to finish", detail: { ", \(self.finished) did" }) { finished >= count }
    }

    /// Runs `queue` while `body` runs; then lets every held delivery go, closes the queue and
    /// waits for it to end, so that no test leaves a queue or a delivery behind.
    func running(_ queue: DeliveryQueue, _ body: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await queue.run() }
            var failure: (any Error)?
            do {
                try await body()
            } catch {
                failure = error
            }
            open()
            queue.close()
            try await group.waitForAll()
            if let failure { throw failure }
        }
    }
}
