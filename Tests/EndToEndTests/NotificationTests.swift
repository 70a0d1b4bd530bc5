import Foundation
import TestSupport
import Testing
import VODAppSamples

/// The desktop notification, against a real notification server on a private session bus.
@Suite(.serialized) struct NotificationTests {
    let runner = VODAppRunner()

    private func mixedPayload(_ server: SampleServer) -> Data {
        PayloadBuilder.json([
            (key: "tulips", title: "Tulips", url: server.url("/bytes/2000.mp4")),
            (key: "bunny", title: "Big Buck Bunny", url: server.url("/bytes/3000.mp4")),
            (key: "huge", title: "Huge", url: server.url("/bytes/\(30 * 1024 * 1024).mp4")),
            (key: "gone", title: "Gone", url: server.url("/status/404")),
        ])
    }

    @Test func oneNotificationNamesTheNewTitlesAndTheSkippedCount() async throws {
        let notifications = try NotificationServer()
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let run = try await runner.run(["-", "--dir", scratch.path, "--json"], stdin: mixedPayload(server),
                                           environment: VODAppRunner.environment(bus: notifications.busAddress))
            #expect(run.exitCode == 75)
            #expect((run.report?["notification"] as? [String: Any])?["shown"] as? Bool == true)

            let calls = notifications.notifyCalls
            try #require(calls.count == 1, "\(calls)")
            let call = calls[0]
            #expect(call.contains(#"Notify "VODApp" 0 "video-x-generic" "2 new videos to watch offline""#), "\(call)")
            // In the payload's order.
            #expect(call.contains("Tulips, Big Buck Bunny"), "\(call)")
            #expect(call.contains("1 skipped as too large, 1 failed"), "\(call)")
            #expect(call.contains(#""category": "transfer.complete""#), "\(call)")
            #expect(call.contains(#""urgency": 1"#), "\(call)")
        }
    }

    @Test func manyNewTitlesAreNamedAsAFewAndMore() async throws {
        let notifications = try NotificationServer()
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let items = (1...5).map { (key: "k\($0)", title: "Video \($0)", url: server.url("/bytes/100.mp4?n=\($0)")) }
            let run = try await runner.run(["-", "--dir", scratch.path, "--json"], stdin: PayloadBuilder.json(items),
                                           environment: VODAppRunner.environment(bus: notifications.busAddress))
            #expect(run.exitCode == 0)
            let call = try #require(notifications.notifyCalls.first)
            #expect(call.contains(#""5 new videos to watch offline" "Video 1, Video 2, Video 3 and 2 more""#), "\(call)")
            #expect(call.contains(#""urgency": 0"#), "\(call)")
        }
    }

    @Test func noNotificationWhenNothingIsNewOrWhenTurnedOff() async throws {
        let notifications = try NotificationServer()
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "k", title: "T", url: server.url("/bytes/100.mp4"))])
            let environment = VODAppRunner.environment(bus: notifications.busAddress)
            let off = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify"], stdin: payload, environment: environment)
            #expect(off.exitCode == 0)
            #expect((off.report?["notification"] as? [String: Any])?["reason"] as? String == "disabled with --no-notify")
            let again = try await runner.run(["-", "--dir", scratch.path, "--json"], stdin: payload, environment: environment)
            #expect(again.item("k")?["status"] as? String == "alreadyPresent")
            #expect((again.report?["notification"] as? [String: Any])?["reason"] as? String == "nothing new to announce")
            #expect(notifications.notifyCalls.isEmpty)
        }
    }

    @Test func withoutANotificationServerTheRunSucceedsWithAWarning() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "k", title: "T", url: server.url("/bytes/100.mp4"))])
            let run = try await runner.run(["-", "--dir", scratch.path, "--json"], stdin: payload)
            #expect(run.exitCode == 0)
            let notification = try #require(run.report?["notification"] as? [String: Any])
            #expect(notification["shown"] as? Bool == false)
            #expect((notification["reason"] as? String)?.hasPrefix("no notification server: ") == true, "\(notification)")
            #expect(run.stderr.contains("warning"))
            #expect(run.stderr.contains("notification not shown"))
        }
    }

    @Test func aServerThatNeverAnswersCannotHoldTheRunPastItsBudget() async throws {
        let notifications = try NotificationServer()
        notifications.freeze()
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "k", title: "T", url: server.url("/bytes/100.mp4"))])
            let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--budget", "3"], stdin: payload,
                                           environment: VODAppRunner.environment(bus: notifications.busAddress))
            #expect(run.wallSeconds < TimeBound.seconds(3.5), "the run took \(run.wallSeconds) s")
            #expect(run.exitCode == 0)
            let notification = try #require(run.report?["notification"] as? [String: Any])
            #expect(notification["shown"] as? Bool == false)
            #expect((notification["reason"] as? String)?.contains("did not answer") == true, "\(notification)")
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "k"), count: 100))
        }
    }
}
