import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// `vodapp-push send` and `vodapp-push demo` as a user runs them.
@Suite(.serialized) struct PushCommandTests {
    let push = VODAppRunner(tool: "vodapp-push")

    private static let samplePayloads = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../SamplePayloads").standardizedFileURL.path

    /// The demo as a user who is not root, as nearly everyone runs it. The sample server set a
    /// socket option only root may (SO_DEBUG: NIO's `.socketOption(.tcp_nodelay)` names option 1
    /// at the socket level), and closed every other user's connection: the new-user trial's first
    /// command failed, every item "Empty reply from server", while the suite, run as root, passed.
    @Test(.enabled("needs root, to make and be another user") { UnixUser.canBeMade })
    func theDemoWorksForAUserWhoIsNotRoot() async throws {
        let user = try await UnixUser("vodapp-test-alice")
        let scratch = try ScratchDirectory()
        chmod(scratch.path, 0o755)
        let dir = scratch.child("media")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        #expect(chown(dir, user.uid, gid_t.max) == 0)
        let run = try await user.run(VODAppRunner.productsDirectory + "/vodapp-push", ["demo", "--dir", dir, "--no-notify"],
                                     environment: VODAppRunner.environment())
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("3 new videos to watch offline"), "\(run.stdout)")
        #expect(ScratchDirectory.visibleMedia(dir).count == 3)
    }

    /// `vodapp-push serve` traps no signal: SIGTERM and SIGINT end it at their default, as they
    /// end any server a user starts by hand, and `kill` and Ctrl-C stop it.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsTheSampleServer(_ signal: Int32) async throws {
        let process = try await RunningProcess(VODAppRunner.productsDirectory + "/vodapp-push", ["serve", "--port", "\(try closedPort())"],
                                               environment: VODAppRunner.environment())
        try await process.wait(for: "the server to say where it serves") { process.stderr.contains("serving sample media on") }
        process.signal(signal)
        #expect(try await process.exitStatus(timeout: .seconds(10)) == signal)
    }

    @Test func theDemoEndsWithTheFilesOnDiskAndSaysWhatTheNotificationSaid() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let run = try await push.run(["demo", "--dir", dir, "--no-notify"])
        #expect(run.exitCode == 0, "\(run.stderr)")
        for entry in SampleCatalogue.entries where entry.bytes <= 20 << 20 {
            let path = "\(dir)/\(entry.title) [\(entry.key)].mp4"
            // The real clip the sample server embeds, byte for byte (DemoPlaysTests plays them).
            let clip = try #require(entry.clip, "\(entry.title) arrives, so it must be a real clip")
            #expect(holdsSampleMedia(path, named: clip.name), "\(entry.title)")
            #expect(run.stdout.contains("-> \(path)"))
        }
        #expect(ScratchDirectory.visibleMedia(dir).count == 3)
        #expect(run.stdout.contains("== Sent the push:"))
        #expect(run.stdout.contains("3 new videos to watch offline"))
        #expect(run.stdout.contains("2 skipped as too large"))
        // And a playlist a media player can open, in the sample payload's order, without the drops.
        #expect(run.stdout.contains("mpv '\(dir)/playlist.m3u8'"))
        let playlist = try String(contentsOfFile: dir + "/playlist.m3u8", encoding: .utf8)
        let listed = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        #expect(listed == SampleCatalogue.entries.filter { $0.bytes <= 20 << 20 }.map { "\($0.title) [\($0.key)].mp4" })
    }

    @Test func theDemoOverHTTPRaisesTheNotificationOnThePrivateBus() async throws {
        let notifications = try await NotificationServer()
        defer { notifications.stop() }
        let scratch = try ScratchDirectory()
        let run = try await push.run(["demo", "--dir", scratch.path, "--via", "http"],
                                     environment: VODAppRunner.environment(bus: notifications.busAddress))
        #expect(run.exitCode == 0, "\(run.stderr)")
        // The listener is stopped, not cancelled: its HTTP server logs no error on a good run.
        #expect(!run.stderr.contains("error"), "\(run.stderr)")
        #expect(run.stdout.contains("The notification (shown)"))
        #expect(notifications.notifyCalls.count == 1)
        #expect(notifications.notifyCalls.first?.contains("3 new videos to watch offline") == true)
    }

    /// Through a real broker the demo starts and stops: mosquitto, from Debian's package.
    @Test func theDemoOverMQTTGoesThroughABrokerItStartsAndStops() async throws {
        let scratch = try ScratchDirectory()
        let run = try await push.run(["demo", "--dir", scratch.path, "--via", "mqtt", "--no-notify"])
        #expect(run.exitCode == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Started an MQTT broker (mosquitto) on 127.0.0.1:"))
        #expect(run.stdout.contains("Sent the push: 743 bytes of JSON to mqtt://127.0.0.1:"), "\(run.stdout)")
        #expect(run.stdout.contains("newData: 3 downloaded, 2 too large"))
        let port = try #require(run.stdout.firstMatch(of: /MQTT broker \(mosquitto\) on 127\.0\.0\.1:([0-9]+)/).flatMap { Int($0.1) })
        #expect(!acceptsConnections(port: port), "the demo's broker outlived it")
    }

    /// `--via` is a typed choice, parsed once: a wrong value is a usage error naming the choices.
    @Test func anUnknownTransportIsAUsageErrorNamingTheChoices() async throws {
        let run = try await push.run(["demo", "--via", "smoke"])
        #expect(run.exitCode == 64)
        #expect(run.stderr == "vodapp-push: The value 'smoke' is invalid for '--via <transport>'. Please provide one of 'udp', 'http' or 'mqtt'. "
                + "(see 'vodapp-push demo --help')\n", "\(run.stderr)")
    }

    /// An empty secret would sign with an empty key, and the listener would answer "does not
    /// match" (the new-user trial): a usage error here, as `vodapp listen` gives.
    @Test func anEmptySecretIsAUsageError() async throws {
        let given = try await push.run(["send", Self.samplePayloads + "/vodapp-sample-local.json", "--to", "http://127.0.0.1:9/push", "--secret", ""])
        #expect(given.exitCode == 64)
        #expect(given.stderr.contains("--secret must not be empty"), "\(given.stderr)")
        let blank = try await push.run(["send", Self.samplePayloads + "/vodapp-sample-local.json", "--to", "http://127.0.0.1:9/push"],
                                       environment: VODAppRunner.environment(extra: ["VODAPP_WEBHOOK_SECRET": ""]))
        #expect(blank.exitCode == 64)
        #expect(blank.stderr.contains("VODAPP_WEBHOOK_SECRET is set but empty"), "\(blank.stderr)")
    }

    @Test func sendingToAPortNobodyListensOnFailsWithTheReason() async throws {
        let port = try closedPort()
        let run = try await push.run(["send", Self.samplePayloads + "/vodapp-sample-local.json", "--to", "udp://127.0.0.1:\(port)"])
        #expect(run.exitCode == 69)
        #expect(run.stderr == "vodapp-push: udp://127.0.0.1:\(port): nothing is listening there (the datagram was refused)\n")
    }

    @Test func aPayloadTooLargeForOneDatagramIsRefusedNotCut() async throws {
        let scratch = try ScratchDirectory()
        let listener = try await ListenerUnderTest(dir: scratch.child("media"))
        let payload = PayloadBuilder.json([(key: "k", title: String(repeating: "t", count: 70_000), url: "http://127.0.0.1:1/x")])
        let run = try await push.run(["send", "-", "--to", "udp://127.0.0.1:\(listener.udpPort)"], stdin: payload)
        #expect(run.exitCode == 69)
        #expect(run.stderr.contains("over APNs' 4096-byte limit"))
        #expect(run.stderr.contains("more than one UDP datagram carries (65507)"))
        // A datagram sent after it is delivered; had the cut one been sent, it would have
        // arrived first.
        let after = PayloadBuilder.json([(key: "after", title: "After", url: "http://127.0.0.1:1/x")])
        #expect(try await push.run(["send", "-", "--to", "udp://127.0.0.1:\(listener.udpPort)"], stdin: after).exitCode == 0)
        let deliveries = try await listener.waitForDeliveries(1)
        #expect(deliveries.count == 1)
        let keys = deliveries.compactMap { ($0["report"] as? [String: Any])?["items"] as? [[String: Any]] }.flatMap { $0 }.map { $0["key"] as? String }
        #expect(keys == ["after"], "\(deliveries)")
        #expect(!listener.process.stderr.contains("dropped a datagram"), "a cut datagram reached the listener")
        _ = try await listener.stop()
    }

    @Test func whatIsNotAPushIsRefusedBeforeSending() async throws {
        for (text, reason) in [("[1]", "must be a JSON object"), ("{\"playlist\": {}}", "no \"aps\" object"), ("{\"aps\": ", "not valid JSON")] {
            let run = try await push.run(["send", "-", "--to", "udp://127.0.0.1:9"], stdin: Data(text.utf8))
            #expect(run.exitCode == 65, "\(text)")
            #expect(run.stderr.contains(reason), "\(text): \(run.stderr)")
        }
        let missing = try await push.run(["send", "/nonexistent/push.json"])
        #expect(missing.exitCode == 66)
    }

    @Test func aSimctlApnsFileIsSentAndDelivered() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path)
            let text = try String(contentsOfFile: Self.samplePayloads + "/simctl-local.apns", encoding: .utf8)
                .replacingOccurrences(of: "http://127.0.0.1:\(SampleCatalogue.defaultPort)", with: server.baseURL)
            let run = try await push.run(["send", "-", "--to", "udp://127.0.0.1:\(listener.udpPort)"], stdin: Data(text.utf8))
            #expect(run.exitCode == 0, "\(run.stderr)")
            let delivery = try #require(try await listener.waitForDeliveries(1).first)
            #expect((delivery["report"] as? [String: Any])?["result"] as? String == "newData")
            _ = try await listener.stop()
        }
    }
}
