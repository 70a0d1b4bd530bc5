import Foundation
import Testing
import TestSupport
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
        let notifications = try await NotificationServer()
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let run = try await runner.run(["-", "--dir", scratch.path, "--json"], stdin: mixedPayload(server),
                                           environment: VODAppRunner.environment(bus: notifications.busAddress))
            // The 404 fails for good: exit 69.
            #expect(run.exitCode == 69)
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
        let notifications = try await NotificationServer()
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
        let notifications = try await NotificationServer()
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

    /// A server that takes the call and never answers holds the run neither past its budget nor,
    /// with a long budget, for more than 3 s: not to the end of a 10 s budget.
    @Test(arguments: [(budget: 3, bound: 3.5), (budget: 10, bound: 4.5)])
    func aServerThatNeverAnswersCannotHoldTheRunPastItsBudget(budget: Int, bound: Double) async throws {
        let notifications = try await NotificationServer()
        notifications.freeze()
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "k", title: "T", url: server.url("/bytes/100.mp4"))])
            let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--budget", "\(budget)"], stdin: payload,
                                           environment: VODAppRunner.environment(bus: notifications.busAddress))
            #expect(run.wallSeconds < TimeBound.seconds(bound), "the run took \(run.wallSeconds) s")
            #expect(run.exitCode == 0)
            let notification = try #require(run.report?["notification"] as? [String: Any])
            #expect(notification["shown"] as? Bool == false)
            #expect((notification["reason"] as? String)?.contains("did not answer") == true, "\(notification)")
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "k"), count: 100))
        }
    }

    /// The desktop `xdg-open` would use for a folder: a desktop entry registered for
    /// inode/directory (as a file manager registers itself) whose program writes down what it
    /// was asked to open. Everything between the click and that program is the real xdg-open.
    private func folderOpener(in scratch: ScratchDirectory) throws -> (environment: [String: String], opened: String) {
        let opened = scratch.child("opened")
        let opener = scratch.child("opener")
        // Written whole, then renamed: the test reads it as soon as the name appears.
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" > '\(opened).new' && mv '\(opened).new' '\(opened)'\n"
            .write(toFile: opener, atomically: true, encoding: .utf8)
        chmod(opener, 0o755)
        try FileManager.default.createDirectory(atPath: scratch.child("data/applications"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.child("config"), withIntermediateDirectories: true)
        try """
        [Desktop Entry]
        Type=Application
        Name=vodapp test folder opener
        Exec=\(opener) %f
        MimeType=inode/directory;

        """.write(toFile: scratch.child("data/applications/vodapp-test-opener.desktop"), atomically: true, encoding: .utf8)
        try "[Default Applications]\ninode/directory=vodapp-test-opener.desktop\n"
            .write(toFile: scratch.child("config/mimeapps.list"), atomically: true, encoding: .utf8)
        // xdg-open consults the desktop's MIME defaults only when it sees a display.
        return (["DISPLAY": ":99", "XDG_CONFIG_HOME": scratch.child("config"), "XDG_DATA_HOME": scratch.child("data"),
                 "XDG_DATA_DIRS": scratch.child("data") + ":/usr/share", "XDG_CURRENT_DESKTOP": ""], opened)
    }

    @Test func aServerWithActionsOffersOpenFolderAndTheClickOpensDIR() async throws {
        let notifications = try await NotificationServer(capabilities: ["body", "actions"])
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let (desktop, opened) = try folderOpener(in: scratch)
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(
                dir: dir, notify: true, environment: VODAppRunner.environment(bus: notifications.busAddress, extra: desktop))
            let payload = PayloadBuilder.json([(key: "k", title: "Tulips", url: server.url("/bytes/100.mp4"))])
            guard case .success = await listener.post(payload, wait: true) else {
                Issue.record("the push was not delivered")
                return
            }
            let call = try #require(notifications.notifyCalls.first)
            #expect(call.contains(#"["open-folder", "Open folder", "default", "Open folder"]"#), "\(call)")
            // The server's default timeout, not one of ours.
            #expect(call.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("} -1"), "\(call)")

            try await notifications.invokeAction("open-folder")
            try await waitUntil("xdg-open to open DIR", timeout: TimeBound.duration(.seconds(10))) {
                FileManager.default.fileExists(atPath: opened)
            }
            #expect(try String(contentsOfFile: opened, encoding: .utf8) == dir + "\n")
            #expect(try await listener.stop() == 143)
        }
    }

    @Test func aRunNobodyWatchesOffersNoActionAndDoesNotWait() async throws {
        let notifications = try await NotificationServer(capabilities: ["body", "actions"])
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "k", title: "T", url: server.url("/bytes/100.mp4"))])
            // Through pipes, as a script or a webhook runs it: nobody could click.
            let run = try await runner.run(["-", "--dir", scratch.path, "--json"], stdin: payload,
                                           environment: VODAppRunner.environment(bus: notifications.busAddress))
            #expect(run.exitCode == 0)
            #expect(run.wallSeconds < TimeBound.seconds(10), "the run took \(run.wallSeconds) s")
            let call = try #require(notifications.notifyCalls.first)
            #expect(call.contains(#"" [] {"#), "\(call)")
        }
    }
}
