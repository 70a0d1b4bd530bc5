import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppPayload
import VODAppSamples

/// `vodapp listen --mqtt` with a secret, against a real mosquitto broker and, for what no real
/// broker does, `HostileBroker`: only signed messages, each once, on the subscription's topics.
@Suite(.serialized) struct SignedMQTTTests {
    private static let topic = "vodapp/devices/kiosk7/push"
    private static let filter = "vodapp/devices/+/push"
    private static let secret = "s3cret"
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL.path

    private func payload(on server: SampleServer, key: String, size: Int = 1000) -> Data {
        PayloadBuilder.json([(key: key, title: key, url: server.url("/bytes/\(size).mp4"))])
    }

    private func mediaRequests(_ server: SampleServer) -> [String] {
        server.requests.map(\.target).filter { $0.hasPrefix("/bytes/") }
    }

    private func signedListener(_ dir: String, on broker: MosquittoBroker) async throws -> ListenerUnderTest {
        try await ListenerUnderTest(
            dir: dir, arguments: ["--no-http", "--mqtt", broker.url(topic: Self.filter)], udp: false,
            environment: VODAppRunner.environment(extra: ["VODAPP_WEBHOOK_SECRET": Self.secret]))
    }

    private func waitFor(_ text: String, in listener: ListenerUnderTest, count: Int = 1) async throws {
        try await listener.process.wait(for: "'\(text)' in the log", timeout: .seconds(20)) {
            listener.process.stderr.components(separatedBy: text).count - 1 >= count || !listener.process.isRunning
        }
    }

    @Test func withASecretOnlySignedMessagesAreDeliveredAndEachOnce() async throws {
        let scratch = try ScratchDirectory()
        let broker = try await MosquittoBroker()
        try await withSampleServer { server in
            let media = scratch.child("media")
            let listener = try await signedListener(media, on: broker)

            // Unsigned, as before the secret: dropped, and said.
            let unsigned = try await broker.mosquittoPub(payload(on: server, key: "unsigned"), topic: Self.topic)
            #expect(unsigned.exitCode == 0, "\(unsigned.stderr)")
            try await waitFor("dropped a message: not a signed push", in: listener)

            // Signed with another secret, or five minutes ago.
            let now = PushSignature.now()
            let forged = SignedPushEnvelope(signing: payload(on: server, key: "forged"), with: PushSignature(secret: "guess"), at: now)
            _ = try await broker.mosquittoPub(forged.message, topic: Self.topic)
            try await waitFor("does not match the timestamp and the body", in: listener)
            let old = SignedPushEnvelope(signing: payload(on: server, key: "old"), with: PushSignature(secret: Self.secret), at: now - 400)
            _ = try await broker.mosquittoPub(old.message, topic: Self.topic)
            try await waitFor("s old; a push must be signed less than 300 s before it arrives", in: listener)

            // Signed: delivered. The very same message again is a replay.
            let good = SignedPushEnvelope(signing: payload(on: server, key: "good"), with: PushSignature(secret: Self.secret), at: now)
            _ = try await broker.mosquittoPub(good.message, topic: Self.topic)
            let delivery = try #require(try await listener.waitForDeliveries(1).first)
            #expect(delivery["from"] as? String == "mqtt \(Self.topic)")
            #expect(holdsSampleBytes(ScratchDirectory.media(media, "good"), count: 1000))
            try await listener.process.wait(for: "the spool to empty") { ScratchDirectory.visibleEntries(media + "/.vodapp/spool").isEmpty }
            _ = try await broker.mosquittoPub(good.message, topic: Self.topic)
            try await waitFor("dropped a message: this signature was already accepted", in: listener)

            // vodapp-push signs it itself.
            let file = scratch.child("sent.json")
            _ = FileManager.default.createFile(atPath: file, contents: payload(on: server, key: "sent", size: 2000))
            let send = try await VODAppRunner(tool: "vodapp-push").run(
                ["send", file, "--to", broker.url(topic: Self.topic), "--secret", Self.secret])
            #expect(send.exitCode == 0, "\(send.stderr)")
            try await listener.waitForDeliveries(2)
            #expect(holdsSampleBytes(ScratchDirectory.media(media, "sent"), count: 2000))

            #expect(mediaRequests(server).sorted() == ["/bytes/1000.mp4", "/bytes/2000.mp4"])
            #expect(listener.deliveries.count == 2)
            #expect(try await listener.stop() == 143)
        }
    }

    /// The recipe of docs/LISTEN.md ("Signed messages"), run as written by bash with openssl, jq
    /// and mosquitto_pub, its first line (where the broker is) set to the test's broker.
    @Test func theDocsShellRecipeMakesASignedMessage() async throws {
        let page = try String(contentsOfFile: Self.root + "/docs/LISTEN.md", encoding: .utf8)
        // The shell blocks, fences and all indented alike (the recipe sits in a list item).
        var blocks: [[String]] = []
        var current: [String]?
        var indent = 0
        for line in page.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```sh" {
                current = []
                indent = line.prefix { $0 == " " }.count
            } else if let lines = current, trimmed == "```" {
                blocks.append(lines)
                current = nil
            } else if current != nil {
                current?.append(String(line.dropFirst(min(indent, line.prefix { $0 == " " }.count))))
            }
        }
        var lines = try #require(blocks.first { $0.contains { $0.contains("mosquitto_pub") } && $0.contains { $0.contains("vodapp-signature") } },
                                 "docs/LISTEN.md has no MQTT signing recipe")
        #expect(lines.first?.hasPrefix("broker=") == true, "\(lines)")

        let scratch = try ScratchDirectory()
        let broker = try await MosquittoBroker()
        try await withSampleServer { server in
            let media = scratch.child("media")
            let listener = try await signedListener(media, on: broker)
            // Pretty-printed, as a person writes one: the recipe makes it compact.
            let object = try JSONSerialization.jsonObject(with: payload(on: server, key: "recipe"))
            try JSONSerialization.data(withJSONObject: object, options: .prettyPrinted).write(to: URL(fileURLWithPath: scratch.child("payload.json")))
            lines[0] = "broker=127.0.0.1 port=\(broker.port) user=\(MosquittoBroker.user) topic=\(Self.topic)"
            let script = "set -euo pipefail\ncd '\(scratch.path)'\n" + lines.joined(separator: "\n")
            let run = try await runTool("/usr/bin/bash", ["-c", script], environment: [
                "PATH": "/usr/bin:/bin", "VODAPP_WEBHOOK_SECRET": Self.secret, "VODAPP_MQTT_PASSWORD": MosquittoBroker.password,
            ])
            #expect(run.exitCode == 0, "\(run.stderr)")
            try await listener.waitForDeliveries(1)
            #expect(holdsSampleBytes(ScratchDirectory.media(media, "recipe"), count: 1000))
            #expect(!listener.process.stderr.contains("dropped a message"), "\(listener.process.stderr)")
            #expect(try await listener.stop() == 143)
        }
    }

    /// A broker that hands over a message on a topic the filter does not match (a compromised
    /// or buggy one; mosquitto never does): dropped, and said, whatever the message holds.
    @Test func aMessageOnATopicOutsideTheFilterIsDropped() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let broker = try HostileBroker(.oneMessage(topic: "vodapp/other/kiosk7/push", payload: Array(payload(on: server, key: "outside"))))
            let listener = try await ListenerUnderTest(
                dir: scratch.child("media"),
                arguments: ["--no-udp", "--no-http", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/\(Self.filter)"], ready: false)
            try await waitFor("dropped a message on a topic outside the subscription filter vodapp/devices/+/push", in: listener)
            #expect(listener.process.stderr.contains("mqtt vodapp/other/kiosk7/push"), "\(listener.process.stderr)")
            #expect(listener.process.isRunning)
            #expect(mediaRequests(server).isEmpty)
            #expect(listener.deliveries.isEmpty)
            #expect(ScratchDirectory.visibleEntries(scratch.child("media") + "/.vodapp/spool").isEmpty)
            #expect(try await listener.stop() == 143)
        }
    }
}
