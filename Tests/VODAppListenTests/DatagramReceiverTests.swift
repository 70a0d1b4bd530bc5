import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Testing
import UnitTestSupport
import VODAppBase
import VODAppListen

/// The simulator protocol's receiver in process: a real UDP socket on a free loopback port, fed by
/// a plain socket exactly as `nc -4u` feeds it, in front of a queue whose deliveries the test holds.
@Suite struct DatagramReceiverTests {
    /// Runs the receiver and its queue as `vodapp listen` runs them (one service group, receivers
    /// stopped first), hands `body` the port it bound, and stops both afterwards.
    private func withReceiver(capacity: Int = DeliveryQueue.defaultCapacity, concurrency: Int = DeliveryQueue.defaultConcurrency,
                              deliveries: HeldDeliveries, told lines: NIOLockedValueBox<[String]> = NIOLockedValueBox([]),
                              _ body: @Sendable (Int) async throws -> Void) async throws {
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        // What the person running the listener would be told: its warnings, as lines.
        let warnings = WarningLimiter(attention: Attention { _, message, metadata in
            let fields = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.withLockedValue { $0.append(([message] + fields).joined(separator: " ")) }
        })
        let queue = deliveries.queue(capacity: capacity, concurrency: concurrency, logger: logger)
        let (bound, boundSink) = AsyncStream.makeStream(of: Int.self)
        let receiver = DatagramReceiver(address: ListenAddress(host: "127.0.0.1", port: 0), queue: queue, logger: logger,
                                        warnings: warnings) { address in
            boundSink.yield(address.port ?? 0)
            boundSink.finish()
        }
        // No signals: the test process's own SIGINT and SIGTERM stay as they were.
        let group = ServiceGroup(configuration: .init(services: [queue, receiver], gracefulShutdownSignals: [], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                // A receiver that cannot bind ends the group: the wait for its port ends too.
                defer { boundSink.finish() }
                try await group.run()
            }
            var failure: (any Error)?
            do {
                let port = try #require(await bound.first { _ in true })
                try await body(port)
            } catch {
                failure = error
            }
            deliveries.open()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            if let failure { throw failure }
        }
    }

    private static func push(_ key: String) -> Data {
        PayloadBuilder.json([(key: key, title: key, url: "http://127.0.0.1:1/\(key).mp4")])
    }

    @Test func aDatagramBecomesADeliveryFromItsSender() async throws {
        let deliveries = HeldDeliveries()
        try await withReceiver(deliveries: deliveries) { port in
            try sendDatagram(Self.push("tulips"), toPort: port)
            try await deliveries.waitForStarts(1)
        }
        let started = try #require(deliveries.started.first)
        #expect(started.keys == ["tulips"])
        guard case .udp(let peer) = started.ticket.origin else {
            Issue.record("from \(started.ticket.origin), not udp")
            return
        }
        #expect(peer.hasPrefix("127.0.0.1:") && Int(peer.dropFirst("127.0.0.1:".count)) != nil, "\(peer)")
    }

    /// The old simulator library cut a payload at 512 (later 4096) bytes; the largest datagram
    /// IPv4 carries arrives whole, its playlist after 65 KB of padding.
    @Test func theLargestDatagramArrivesWhole() async throws {
        let deliveries = HeldDeliveries()
        try await withReceiver(deliveries: deliveries) { port in
            let head = #"{"aps":{"content-available":1},"pad":""#
            let tail = #"","playlist":{"last":{"title":"Last","url":"http://127.0.0.1:1/last.mp4"}}}"#
            let size = 65_507
            let text = head + String(repeating: "x", count: size - head.utf8.count - tail.utf8.count) + tail
            #expect(text.utf8.count == size)
            try sendDatagram(Data(text.utf8), toPort: port)
            try await deliveries.waitForStarts(1)
        }
        #expect(deliveries.started.map(\.keys) == [["last"]])
    }

    /// Datagrams that are not pushes are dropped without a delivery, and the warnings about them
    /// are a few lines however many arrive (`WarningLimiterTests` shows the count that follows);
    /// the receiver still takes the next real push.
    @Test func garbageIsDroppedWithAFewWarningsAndTheNextPushArrives() async throws {
        let deliveries = HeldDeliveries()
        let lines = NIOLockedValueBox<[String]>([])
        let garbage: [Data] = [
            Data(), Data([0]), Data([0xFF, 0xFE, 0x00, 0x7B]), Data("not a push".utf8),
            // The simulator library README's own example: JSON, but no push.
            Data(#"{"message":"message"}"#.utf8),
            Data(#"{"aps": {"content-available": 1}, "playlist": {"k": {"title": "t", "url": "file:///etc/passwd"}}}"#.utf8),
            Data(repeating: 0x41, count: 4096),
        ]
        try await withReceiver(deliveries: deliveries, told: lines) { port in
            for _ in 0..<10 {
                for datagram in garbage { try sendDatagram(datagram, toPort: port) }
            }
            // Loopback keeps one socket's datagrams in order: once this one is delivered, the
            // garbage before it has been read.
            try sendDatagram(Self.push("after"), toPort: port)
            try await deliveries.waitForStarts(1)
        }
        #expect(deliveries.started.map(\.keys) == [["after"]])
        let warnings = lines.withLockedValue { $0 }.filter { $0.hasPrefix("dropped a datagram: invalid payload: ") }
        #expect((1...5).contains(warnings.count), "\(warnings.count) warnings for 70 bad datagrams")
        #expect(warnings.allSatisfy { $0.contains("from=udp 127.0.0.1:") }, "\(warnings)")
    }

    /// UDP has no answer to refuse with: a push that finds the queue full is dropped and logged,
    /// and the pushes already accepted run.
    @Test func aPushThatFindsTheQueueFullIsDroppedAndLogged() async throws {
        let deliveries = HeldDeliveries(open: false)
        let lines = NIOLockedValueBox<[String]>([])
        try await withReceiver(capacity: 1, concurrency: 1, deliveries: deliveries, told: lines) { port in
            try sendDatagram(Self.push("running"), toPort: port)
            try await deliveries.waitForStarts(1)
            try sendDatagram(Self.push("waiting"), toPort: port)
            try sendDatagram(Self.push("dropped"), toPort: port)
            try await waitUntil("the drop to be logged", detail: { ": \(lines.withLockedValue { $0 })" }) {
                lines.withLockedValue { $0.contains { $0.hasPrefix("dropped a push: the delivery queue is full (1 waiting)") } }
            }
            deliveries.open()
            try await deliveries.waitForFinishes(2)
        }
        #expect(deliveries.started.map(\.keys) == [["running"], ["waiting"]])
    }
}
