import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import TestSupport
import UnitTestSupport
import VODAppMQTT

/// The subscription against a broker that makes it hold more than its heap ceiling: the listener's
/// ceiling is 320 MiB, which a test would take long to fill; here it is 32 MiB.
@Suite struct BrokerSubscriptionTests {
    /// A message of 96 MiB (libmosquitto allocates it whole before reading it) passes a 32 MiB
    /// ceiling: the connection is dropped as overwhelmed, and tried again.
    @Test func aBrokerThatMakesItHoldMoreThanTheCeilingIsDropped() async throws {
        let broker = try HostileBroker(.oneLargeMessage(bytes: 96 << 20))
        let url = try BrokerURL("mqtt://127.0.0.1:\(broker.port)/vodapp/devices/+/push", for: .subscribe)
        let subscription = BrokerSubscription(
            .init(broker: url, clientID: "vodapp-test-\(getpid())", maximumPayload: 1 << 20, heapCeiling: 32 << 20),
            logger: Logger(label: "test"))
        let events = NIOLockedValueBox<[BrokerSubscription.Event]>([])
        let run = Task { try await subscription.run { event in events.withLockedValue { $0.append(event) } } }
        let deadline = ContinuousClock.now + .seconds(30)
        func dropped() -> BrokerError? {
            events.withLockedValue { events in
                events.lazy.compactMap { event -> BrokerError? in
                    if case .disconnected(let error, _) = event { error } else { nil }
                }.first
            }
        }
        while dropped() == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        subscription.stop()
        try await run.value
        let error = try #require(dropped())
        guard case .overwhelmed(_, let held) = error else {
            Issue.record("dropped for \(error), not for what it held")
            return
        }
        #expect(held > 32 << 20)
        #expect(!events.withLockedValue { $0 }.contains { if case .message = $0 { true } else { false } })
    }

    /// Paused, the subscription takes nothing (the broker keeps what is published meanwhile, for
    /// the persistent session); resumed, it gets all of it. What a listener whose spool is full
    /// relies on to lose no push a flood would have crowded out.
    @Test(.enabled(if: isInstalled("/usr/sbin/mosquitto"), "needs mosquitto")) func pausedItTakesNothingAndResumedItGetsWhatTheBrokerKept() async throws {
        let broker = try await MosquittoBroker()
        let logger = Logger(label: "test")
        let subscription = BrokerSubscription(
            .init(broker: try BrokerURL(broker.url(topic: "t/+"), for: .subscribe), clientID: "vodapp-pause-\(getpid())"),
            logger: logger)
        let events = NIOLockedValueBox<[BrokerSubscription.Event]>([])
        let run = Task { try await subscription.run { event in events.withLockedValue { $0.append(event) } } }
        func count(_ matching: (BrokerSubscription.Event) -> Bool) -> Int { events.withLockedValue { $0.filter(matching).count } }
        func subscriptions() -> Int { count { if case .subscribed = $0 { true } else { false } } }
        func messages() -> [String] {
            events.withLockedValue { $0.compactMap { if case .message(let m) = $0 { String(decoding: m.payload, as: UTF8.self) } else { nil } } }
        }
        func waitFor(_ what: String, _ condition: () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while !condition() {
                guard ContinuousClock.now < deadline else { throw CancellationError() }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let publisher = BrokerPublisher(broker: try BrokerURL(broker.url(topic: "t/1"), for: .publish))
        try await waitFor("the subscription") { subscriptions() == 1 }
        try await publisher.publish(Data("first".utf8), logger: logger)
        try await waitFor("the first message") { messages() == ["first"] }

        subscription.pause()
        try await Task.sleep(for: .milliseconds(600))
        for text in ["second", "third"] { try await publisher.publish(Data(text.utf8), logger: logger) }
        try await Task.sleep(for: .milliseconds(600))
        #expect(messages() == ["first"])

        subscription.resume()
        // A persistent session's kept messages may come before the new subscription's
        // acknowledgement is heard: both are waited for.
        try await waitFor("the kept messages and the new subscription") { messages().count == 3 && subscriptions() == 2 }
        #expect(messages() == ["first", "second", "third"])
        subscription.stop()
        try await run.value
    }
}
