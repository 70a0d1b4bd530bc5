import Logging
import NIOConcurrencyHelpers
import Testing
import UnitTestSupport
import VODAppListen
import VODAppMediaDirectory
import VODAppPayload

/// The bounded queue between the receivers and the pipeline, in process, with deliveries the test
/// holds in their slots: how many run at once, in what order, what a full or closing queue
/// refuses, and what a ticket's waiter and the completion callback are told.
@Suite struct DeliveryQueueTests {
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    private static func payload(_ key: String) throws -> Payload {
        try Payload(data: PayloadBuilder.json([(key: key, title: key, url: "http://127.0.0.1:1/\(key).mp4")]))
    }

    /// Runs the queue while `body` pushes to it, then closes it and waits for it to drain.
    private static func load(_ queue: DeliveryQueue) -> [Int] {
        [queue.load.waiting, queue.load.running]
    }

    @Test func atMostItsConcurrencyRunAtOnceAndTheRestWaitInOrder() async throws {
        let deliveries = HeldDeliveries(open: false)
        let queue = deliveries.queue(capacity: 8, concurrency: 2, logger: Self.logger)
        try await deliveries.running(queue) {
            var tickets: [DeliveryTicket] = []
            for key in ["a", "b", "c", "d", "e"] {
                tickets.append(try queue.submit(try Self.payload(key), from: .udp(peer: "127.0.0.1:5000")))
            }
            try await deliveries.waitForStarts(2)
            try await waitUntil("three to wait", detail: { " \(Self.load(queue))" }) { Self.load(queue) == [3, 2] }
            #expect(deliveries.started.map(\.keys) == [["a"], ["b"]])

            deliveries.open()
            for (ticket, key) in zip(tickets, ["a", "b", "c", "d", "e"]) {
                #expect(try await ticket.outcome().get().items.map(\.key) == [key])
            }
            // Started in the order they were accepted, each under its own ticket.
            #expect(deliveries.started.map(\.keys) == [["a"], ["b"], ["c"], ["d"], ["e"]])
            #expect(deliveries.started.map(\.ticket.id) == tickets.map(\.id))
            #expect(Set(tickets.map(\.id)).count == 5)
        }
    }

    @Test func oneAtATimeDeliversInTheOrderAccepted() async throws {
        let deliveries = HeldDeliveries()
        let queue = deliveries.queue(capacity: 16, concurrency: 1, logger: Self.logger)
        let keys = (0..<10).map { "push\($0)" }
        try await deliveries.running(queue) {
            var tickets: [DeliveryTicket] = []
            for key in keys {
                tickets.append(try queue.submit(try Self.payload(key), from: .http(peer: "127.0.0.1:6000")))
            }
            for ticket in tickets { _ = await ticket.outcome() }
        }
        #expect(deliveries.started.map(\.keys) == keys.map { [$0] })
    }

    /// Capacity counts the pushes waiting for a slot, not the ones running: with one slot busy
    /// and one waiting, a queue of one refuses the next, and takes pushes again once it drains.
    @Test func aFullQueueRefusesNamingItsCapacityAndAcceptsAgainOnceItDrains() async throws {
        let deliveries = HeldDeliveries(open: false)
        let queue = deliveries.queue(capacity: 1, concurrency: 1, logger: Self.logger)
        try await deliveries.running(queue) {
            let running = try queue.submit(try Self.payload("running"), from: .standardInput)
            try await deliveries.waitForStarts(1)
            let waiting = try queue.submit(try Self.payload("waiting"), from: .standardInput)
            #expect(Self.load(queue) == [1, 1])
            #expect(throws: DeliveryQueue.Refusal.full(capacity: 1)) {
                try queue.submit(try Self.payload("refused"), from: .standardInput)
            }
            #expect(DeliveryQueue.Refusal.full(capacity: 1).description == "the delivery queue is full (1 waiting)")
            #expect(Self.load(queue) == [1, 1], "a refused push takes no room")

            deliveries.open()
            _ = await running.outcome()
            _ = await waiting.outcome()
            try await waitUntil("the queue to empty") { Self.load(queue) == [0, 0] }
            let later = try queue.submit(try Self.payload("later"), from: .standardInput)
            _ = await later.outcome()
        }
        #expect(deliveries.started.map(\.keys) == [["running"], ["waiting"], ["later"]])
    }

    /// Closed (a graceful shutdown), the queue refuses new pushes but runs every one it accepted,
    /// and only then does `run` return.
    @Test func aClosedQueueRefusesNewPushesAndFinishesTheAcceptedOnes() async throws {
        let deliveries = HeldDeliveries(open: false)
        let queue = deliveries.queue(capacity: 4, concurrency: 1, logger: Self.logger)
        let ended = NIOLockedValueBox(false)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await queue.run()
                ended.withLockedValue { $0 = true }
            }
            let first = try queue.submit(try Self.payload("first"), from: .standardInput)
            let second = try queue.submit(try Self.payload("second"), from: .standardInput)
            do {
                try await deliveries.waitForStarts(1)
            } catch {
                // The group would wait for a run nobody ends: a failure here must end the test.
                deliveries.open()
                queue.close()
                throw error
            }

            queue.close()
            #expect(throws: DeliveryQueue.Refusal.shuttingDown) {
                try queue.submit(try Self.payload("late"), from: .standardInput)
            }
            #expect(DeliveryQueue.Refusal.shuttingDown.description == "the listener is shutting down")
            #expect(!ended.withLockedValue { $0 }, "run returned with deliveries unfinished")

            deliveries.open()
            #expect(try await first.outcome().get().items.map(\.key) == ["first"])
            #expect(try await second.outcome().get().items.map(\.key) == ["second"])
            try await group.waitForAll()
        }
        #expect(ended.withLockedValue { $0 })
        #expect(deliveries.started.map(\.keys) == [["first"], ["second"]])
    }

    /// What a listener does when asked to stop: pushes are refused at once while the queue still
    /// runs what it holds.
    @Test func refusingNewPushesKeepsRunningTheAcceptedOnes() async throws {
        let deliveries = HeldDeliveries(open: false)
        let queue = deliveries.queue(capacity: 4, concurrency: 1, logger: Self.logger)
        try await deliveries.running(queue) {
            let accepted = try queue.submit(try Self.payload("accepted"), from: .standardInput)
            queue.refuseNewPushes()
            #expect(throws: DeliveryQueue.Refusal.shuttingDown) {
                try queue.submit(try Self.payload("refused"), from: .standardInput)
            }
            deliveries.open()
            #expect(try await accepted.outcome().get().items.map(\.key) == ["accepted"])
        }
        #expect(deliveries.started.map(\.keys) == [["accepted"]])
    }

    /// A delivery that throws is reported as its error to whoever waits on the ticket, and to the
    /// completion callback after them, and frees its slot for the next.
    @Test func aFailedDeliveryReachesItsWaitersAndTheCallbackAndFreesItsSlot() async throws {
        let deliveries = HeldDeliveries()
        let completed = NIOLockedValueBox<[(id: String, failed: Bool)]>([])
        let queue = DeliveryQueue(capacity: 4, concurrency: 1, logger: Self.logger, onCompletion: { ticket, outcome in
            if case .failure = outcome {
                completed.withLockedValue { $0.append((ticket.id, true)) }
            } else {
                completed.withLockedValue { $0.append((ticket.id, false)) }
            }
        }) { payload, ticket throws(MediaDirectoryError) in
            if payload.items.first?.key == "broken" {
                throw MediaDirectoryError.directoryUnusable(path: "/nowhere", reason: "it is not there")
            }
            return await deliveries.deliver(payload, ticket)
        }
        try await deliveries.running(queue) {
            let broken = try queue.submit(try Self.payload("broken"), from: .standardInput)
            let next = try queue.submit(try Self.payload("next"), from: .standardInput)
            guard case .failure(let error) = await broken.outcome() else {
                Issue.record("the broken delivery succeeded")
                return
            }
            #expect(error.description == "cannot use /nowhere for media: it is not there")
            // A second waiter on an ended ticket gets the same outcome at once.
            guard case .failure = await broken.outcome() else {
                Issue.record("a later waiter saw another outcome")
                return
            }
            #expect(try await next.outcome().get().items.map(\.key) == ["next"])
            try await waitUntil("both completions") { completed.withLockedValue { $0.count } == 2 }
            #expect(completed.withLockedValue { $0.map(\.id) } == [broken.id, next.id])
            #expect(completed.withLockedValue { $0.map(\.failed) } == [true, false])
        }
    }

    /// Every ticket records where its push came from and when it arrived, which is when its budget
    /// starts, however long it waits for a slot.
    @Test func aTicketKeepsItsOriginAndArrival() async throws {
        let deliveries = HeldDeliveries(open: false)
        let queue = deliveries.queue(capacity: 4, concurrency: 1, logger: Self.logger)
        try await deliveries.running(queue) {
            let before = ContinuousClock.now
            let first = try queue.submit(try Self.payload("first"), from: .udp(peer: "127.0.0.1:4000"))
            let second = try queue.submit(try Self.payload("second"), from: .http(peer: "[::1]:4001"))
            let after = ContinuousClock.now
            try await deliveries.waitForStarts(1)
            #expect(first.origin == .udp(peer: "127.0.0.1:4000"))
            #expect(second.origin == .http(peer: "[::1]:4001"))
            #expect(first.arrived >= before && first.arrived <= second.arrived && second.arrived <= after)
            deliveries.open()
            _ = await second.outcome()
            #expect(deliveries.started.last?.ticket.arrived == second.arrived)
        }
    }
}
