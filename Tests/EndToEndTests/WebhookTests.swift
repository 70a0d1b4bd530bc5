import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// `Examples/webhook/hooks.json` under the real adnanh/webhook binary (Debian's `webhook`),
/// running the built `vodapp` from PATH.
@Suite(.serialized) struct WebhookTests {
    private static let hooks = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/webhook/hooks.json").standardizedFileURL.path

    /// Starts `webhook -template -hooks hooks.json` on a free port with the secret and DIR in its
    /// environment, as the README says to.
    private func startWebhook(secret: String, dir: String) async throws -> (RunningProcess, Int) {
        let port = try closedPort()
        let path = VODAppRunner.productsDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let webhook = try await RunningProcess("/usr/bin/webhook", [
            "-template", "-hooks", Self.hooks, "-ip", "127.0.0.1", "-port", "\(port)", "-verbose",
        ], environment: VODAppRunner.environment(extra: ["PATH": path, "VODAPP_WEBHOOK_SECRET": secret, "VODAPP_DIR": dir]))
        try await webhook.wait(for: "webhook to listen") {
            (try? httpGet(port: port, path: "/"))?.status ?? 0 != 0
        }
        return (webhook, port)
    }

    /// A push of `server`'s 4000-byte sample and two more, their keys out of alphabetical order,
    /// as a file for `vodapp-push send`.
    private func pushFile(for server: SampleServer, in scratch: ScratchDirectory) throws -> String {
        let file = scratch.child("push.json")
        try PayloadBuilder.json([(key: "tulips", title: "Tulips", url: server.url("/bytes/4000.mp4")),
                                 (key: "sunset", title: "Sunset", url: server.url("/bytes/3000.mp4")),
                                 (key: "unicorns", title: "Unicorns", url: server.url("/bytes/2000.mp4"))])
            .write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test func aSignedPostRunsVodappAndAnswersWithItsReport() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let (webhook, port) = try await startWebhook(secret: "s3cret", dir: dir)
            let file = try pushFile(for: server, in: scratch)
            let send = try await VODAppRunner(tool: "vodapp-push").run([
                "send", file, "--to", "http://127.0.0.1:\(port)/hooks/vodapp", "--secret", "s3cret",
            ])
            #expect(send.exitCode == 0, "\(send.stderr) webhook: \(webhook.stderr)")
            // --quiet keeps stderr out of the answer, so it is exactly the JSON report.
            let report = try #require(send.report, "not one JSON object: \(send.stdout)")
            #expect(report["result"] as? String == "newData")
            #expect(report["directory"] as? String == dir)
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "tulips"), count: 4000))
            // The payload's order, as the sender wrote it: webhook's re-encoding sorted the keys
            // (the new-user trial's report and playlist came in key order).
            #expect((report["items"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == ["tulips", "sunset", "unicorns"])
            let playlist = try String(contentsOfFile: dir + "/playlist.m3u8", encoding: .utf8)
            #expect(playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }
                    == ["Tulips [tulips].mp4", "Sunset [sunset].mp4", "Unicorns [unicorns].mp4"], "\(playlist)")
            webhook.signal(SIGTERM)
        }
    }

    @Test func unsignedAndWronglySignedPostsAreRefusedBeforeVodappRuns() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let (webhook, port) = try await startWebhook(secret: "s3cret", dir: dir)
            let file = try pushFile(for: server, in: scratch)
            let sender = VODAppRunner(tool: "vodapp-push")
            let to = "http://127.0.0.1:\(port)/hooks/vodapp"
            let unsigned = try await sender.run(["send", file, "--to", to])
            #expect(unsigned.exitCode == 69)
            #expect(unsigned.stderr.contains("(HTTP 401)"), "\(unsigned.stderr)")
            let wrong = try await sender.run(["send", file, "--to", to, "--secret", "guess"])
            #expect(wrong.exitCode == 69)
            #expect(wrong.stderr.contains("(HTTP 401)"), "\(wrong.stderr)")

            #expect(server.requests.isEmpty, "a refused push reached the media server")
            #expect(!FileManager.default.fileExists(atPath: dir))
            webhook.signal(SIGTERM)
        }
    }
}
