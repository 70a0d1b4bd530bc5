import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import TestSupport
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
}
