import Foundation
import Logging
import Testing
import UnitTestSupport
import VODAppBase
import VODAppDelivery
import VODAppDeliveryPolicy
import VODAppDevice
import VODAppPayload
import VODAppReport
import VODAppSamples

/// What deferral does to a delivery, in process, with the device's conditions given as values
/// (`FixedDeviceConditions`): which conditions defer, what is asked of the server, what the
/// report and the store say. That NetworkManager and power-profiles-daemon are read right is
/// `DeferralTests`' (end to end, on dbusmock's templates).
@Suite struct DeferralDeliveryTests {
    private func deliver(into dir: String, from server: SampleServer, conditions: DeviceConditions,
                         policy: DeferralPolicy = DeferralPolicy()) async throws -> DeliveryReport {
        var options = DeliveryOptions(directory: dir, notify: false)
        options.deferral = policy
        let payload = try Payload(data: PayloadBuilder.json([(key: "a", title: "A", url: server.url("/bytes/1000.mp4")),
                                                             (key: "b", title: "B", url: server.url("/bytes/2000.mp4"))]))
        return try await Delivery(options: options, logger: Logger(label: "test"), attention: .unheard,
                                  device: FixedDeviceConditions(conditions)).run(payload, from: .standardInput)
    }

    @Test(arguments: [
        (DeviceConditions(metered: true), "deferred: the network connection is metered (--on-metered fetch fetches anyway)"),
        (DeviceConditions(powerSaver: true), "deferred: power saver is on (--on-power-saver fetch fetches anyway)"),
    ])
    func aConditionThatDefersFetchesNothingAndSaysWhy(conditions: DeviceConditions, why: String) async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let report = try await deliver(into: dir.path, from: server, conditions: conditions)
            #expect(report.items.map(\.status) == [.deferred, .deferred])
            #expect(report.items.allSatisfy { $0.error == why }, "\(report.items.map(\.error))")
            #expect(ExitStatus(report) == .temporaryFailure)
            #expect(server.requests.isEmpty)
            #expect(ScratchDirectory.visibleMedia(dir.path).isEmpty)

            // Once the condition clears, the next delivery fetches them.
            let later = try await deliver(into: dir.path, from: server, conditions: DeviceConditions())
            #expect(later.items.map(\.status) == [.downloaded, .downloaded])
            #expect(server.requests.count == 2)
        }
    }

    /// --on-metered fetch and --on-power-saver fetch: the condition holds, and nothing waits.
    @Test func fetchChosenForAConditionFetches() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let report = try await deliver(into: dir.path, from: server, conditions: DeviceConditions(metered: true, powerSaver: true),
                                           policy: DeferralPolicy(onMetered: .fetch, onPowerSaver: .fetch))
            #expect(report.items.map(\.status) == [.downloaded, .downloaded])
            #expect(holdsSampleBytes(ScratchDirectory.media(dir.path, "b"), count: 2000))
        }
    }
}
