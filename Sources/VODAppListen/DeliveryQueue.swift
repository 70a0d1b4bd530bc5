import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import VODAppDelivery
import VODAppMediaDirectory
import VODAppPayload
import VODAppReport

/// The bounded queue between the receivers and the delivery pipeline.
///
/// Receivers answer at once (202, or nothing for UDP) and the queue runs deliveries behind them, a
/// few side by side. When more are waiting than it holds, a push is refused rather than queued
/// without bound: HTTP answers 429 and a UDP push is logged and dropped, so a flood costs memory
/// in proportion to the capacity, not to the flood.
public final class DeliveryQueue: Service, Sendable {
    public typealias Deliver = @Sendable (Payload, DeliveryTicket) async throws(MediaDirectoryError) -> DeliveryReport

    /// Why a push was not accepted.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case full(capacity: Int)
        case shuttingDown

        public var description: String {
            switch self {
            case .full(let capacity): "the delivery queue is full (\(capacity) waiting)"
            case .shuttingDown: "the listener is shutting down"
            }
        }
    }

    public static let defaultCapacity = 16
    public static let defaultConcurrency = 4

    private struct Job: Sendable {
        let payload: Payload
        let ticket: DeliveryTicket
    }

    private struct State {
        var waiting = 0
        var running = 0
        var accepting = true
        /// The keys of the pushes waiting and running, each counted once per push naming it.
        var keys: [String: Int] = [:]

        mutating func count(_ payload: Payload, by change: Int) {
            for item in payload.items {
                let count = keys[item.key, default: 0] + change
                keys[item.key] = count > 0 ? count : nil
            }
        }
    }

    public let capacity: Int
    public let concurrency: Int
    private let deliver: Deliver
    private let onCompletion: @Sendable (DeliveryTicket, DeliveryTicket.Outcome) -> Void
    private let logger: Logger
    private let state = NIOLockedValueBox(State())
    private let jobs: AsyncStream<Job>
    private let intake: AsyncStream<Job>.Continuation

    /// - Parameters:
    ///   - capacity: how many accepted pushes may wait for a free slot.
    ///   - concurrency: how many deliveries run side by side.
    ///   - deliver: runs one delivery; its budget starts at the ticket's arrival.
    ///   - onCompletion: told about every delivery that ended, after its waiters.
    public init(capacity: Int = defaultCapacity, concurrency: Int = defaultConcurrency, logger: Logger,
                onCompletion: @escaping @Sendable (DeliveryTicket, DeliveryTicket.Outcome) -> Void = { _, _ in },
                deliver: @escaping Deliver) {
        self.capacity = capacity
        self.concurrency = concurrency
        self.deliver = deliver
        self.onCompletion = onCompletion
        self.logger = logger
        (jobs, intake) = AsyncStream.makeStream(of: Job.self)
    }

    /// Whether a push submitted now would start at once: nothing waits, and a slot is free.
    public var hasFreeSlot: Bool {
        state.withLockedValue { $0.waiting == 0 && $0.running < concurrency }
    }

    /// The keys of the pushes that wait and run right now: a retry leaves them to those.
    public var busyKeys: Set<String> {
        state.withLockedValue { Set($0.keys.keys) }
    }

    /// How many deliveries wait and run right now.
    public var load: (waiting: Int, running: Int) {
        state.withLockedValue { ($0.waiting, $0.running) }
    }

    /// Accepts a payload for delivery, or refuses it when the queue is full or closing.
    /// - Parameter authentication: who vouches for it; nothing, unless the receiver says.
    public func submit(_ payload: Payload, from origin: DeliverySource,
                       authentication: PushAuthentication = .unauthenticated) throws(Refusal) -> DeliveryTicket {
        let ticket = DeliveryTicket(origin: origin, authentication: authentication)
        let refusal = state.withLockedValue { state -> Refusal? in
            guard state.accepting else { return .shuttingDown }
            guard state.waiting < capacity else { return .full(capacity: capacity) }
            state.waiting += 1
            state.count(payload, by: 1)
            return nil
        }
        if let refusal { throw refusal }
        logger.debug("push accepted", metadata: ["delivery": "\(ticket.id)", "from": "\(origin)", "authentication": "\(authentication)", "items": "\(payload.items.count)"])
        intake.yield(Job(payload: payload, ticket: ticket))
        return ticket
    }

    /// Runs deliveries until a graceful shutdown; then refuses new pushes and finishes every
    /// accepted one, each within its budget.
    public func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                var slots = concurrency
                for await job in jobs {
                    if slots == 0 {
                        await group.next()
                        slots += 1
                    }
                    slots -= 1
                    state.withLockedValue {
                        $0.waiting -= 1
                        $0.running += 1
                    }
                    group.addTask { await self.perform(job) }
                }
            }
        } onGracefulShutdown: {
            self.close()
        }
    }

    /// Stops accepting pushes; the ones already accepted still run.
    public func close() {
        refuseNewPushes()
        intake.finish()
    }

    /// Refuses every push from now on (503 over HTTP) while the queue keeps running what it
    /// accepted, until its service is shut down.
    public func refuseNewPushes() {
        state.withLockedValue { $0.accepting = false }
    }

    private func perform(_ job: Job) async {
        let ticket = job.ticket
        let outcome: DeliveryTicket.Outcome
        do {
            outcome = .success(try await deliver(job.payload, ticket))
        } catch {
            outcome = .failure(error)
        }
        state.withLockedValue {
            $0.running -= 1
            $0.count(job.payload, by: -1)
        }
        ticket.finish(outcome)
        onCompletion(ticket, outcome)
    }
}
