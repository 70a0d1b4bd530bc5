import CommandSupport
import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import UnitTestSupport
import VODAppBase
import VODAppDelivery
import VODAppPush
import VODAppReport
import VODAppSamples

/// `vodapp-push demo`'s whole path run in process: the sample server and a listener on free
/// loopback ports, a real datagram or POST between them, and the delivery. What the command
/// prints around it, and mpv playing the result, stay in PushCommandTests and DemoPlaysTests.
@Suite struct PushDemoTests {
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// The catalogue's items in its order, with the status the default 20 MiB limit gives each.
    static let expected: [(key: String, status: ItemReport.Status)] = SampleCatalogue.entries.map {
        ($0.key, $0.bytes <= DeliveryOptions.defaultMaximumSize ? .downloaded : .tooLarge)
    }

    /// Runs the demo and returns its report and the lines it said.
    private func run(_ via: PushDemo.Via, into dir: String, notify: Bool, notifier: RecordingNotifier) async throws -> (DeliveryReport, [String]) {
        let said = NIOLockedValueBox<[String]>([])
        let demo = PushDemo(options: DeliveryOptions(directory: dir, notify: notify), via: via, notifier: notifier, logger: Self.logger,
                            attention: .unheard)
        let report = try await demo.run { line in said.withLockedValue { $0.append(line) } }
        return (report, said.withLockedValue { $0 })
    }

    /// The port in the first `http://127.0.0.1:PORT` of `line`.
    private static func port(in line: String) -> Int? {
        guard let range = line.range(of: "://127.0.0.1:") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// What the demo tests assert when they say nothing is left listening, seen to hold and to
    /// fail: the sample server's port is this process's while it runs, and no longer once it is
    /// shut down.
    @Test func aServerShutDownLeavesNothingListening() async throws {
        let server = try await SampleServer.start(port: 0)
        #expect(portsThisProcessListensOn().contains(server.port))
        await server.shutdown()
        #expect(!portsThisProcessListensOn().contains(server.port))
    }

    @Test func overUDPTheThreeClipsArriveTheTwoLargeItemsAreDroppedAndTheNotificationSaysSo() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let notifier = RecordingNotifier()
        let (report, said) = try await run(.udp, into: dir, notify: true, notifier: notifier)

        #expect(report.result == .newData)
        #expect(ExitStatus(report) == .success)
        #expect(report.directory == dir)
        #expect(report.items.map(\.key) == Self.expected.map(\.key))
        #expect(report.items.map(\.status) == Self.expected.map(\.status))
        for entry in SampleCatalogue.entries {
            guard let clip = entry.clip else { continue }
            let path = "\(dir)/\(entry.title) [\(entry.key)].mp4"
            #expect(report.items.first { $0.key == entry.key }?.path == path)
            #expect(holdsSampleMedia(path, named: clip.name), "\(entry.title)")
        }
        #expect(ScratchDirectory.visibleMedia(dir).count == 3)
        let playlist = try String(contentsOfFile: dir + "/playlist.m3u8", encoding: .utf8)
        #expect(playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
                == SampleCatalogue.entries.filter { $0.clip != nil }.map { "\($0.title) [\($0.key)].mp4" })

        #expect(report.notification == .shown)
        #expect(notifier.notifications.count == 1)
        let notification = try #require(notifier.notifications.first)
        #expect(notification.summary == "3 new videos to watch offline")
        #expect(notification.body == "Tulips, Unicorns and horses spining around, Superb sunset - Miami Beach 2017\n2 skipped as too large")

        #expect(said.count == 3, "\(said)")
        let serving = try #require(said.first)
        #expect(serving.hasPrefix("Serving the sample playlist on http://127.0.0.1:"), "\(serving)")
        #expect(said.dropFirst().first?.hasPrefix("vodapp is listening on udp://127.0.0.1:") == true, "\(said)")
        #expect(said.dropFirst().first?.hasSuffix(", with media going to \(dir)") == true, "\(said)")
        #expect(said.last?.hasPrefix("Sent the push: ") == true && said.last?.contains(" bytes of JSON to udp://127.0.0.1:") == true, "\(said)")

        // Nothing of the demo is left listening.
        let samplePort = try #require(Self.port(in: serving))
        let udpPort = try #require(Self.port(in: said[1]))
        #expect(portsThisProcessListensOn().isDisjoint(with: [samplePort, udpPort]))
    }

    @Test func overHTTPWithNotificationsOffTheSameItemsArriveAndNothingIsPosted() async throws {
        let scratch = try ScratchDirectory()
        let notifier = RecordingNotifier()
        let (report, said) = try await run(.http, into: scratch.path, notify: false, notifier: notifier)

        #expect(report.items.map(\.status) == Self.expected.map(\.status))
        #expect(ScratchDirectory.visibleMedia(scratch.path).count == 3)
        #expect(report.notification == .notShown("disabled with --no-notify"))
        #expect(notifier.notifications.isEmpty)

        let listening = try #require(said.dropFirst().first)
        #expect(listening.hasPrefix("vodapp is listening on http://127.0.0.1:") && listening.contains("/push,"), "\(listening)")
        #expect(said.last?.contains(" bytes of JSON to http://127.0.0.1:") == true, "\(said)")
        // The listener and the sample server are both gone.
        let ports = try said.prefix(2).map { try #require(Self.port(in: $0)) }
        #expect(portsThisProcessListensOn().isDisjoint(with: ports), "\(said)")
    }
}
