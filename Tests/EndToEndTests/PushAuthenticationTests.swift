import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppPayload
import VODAppPush
import VODAppSamples

/// Who may push what to `vodapp listen`: the built executable with a secret, pushed to over HTTP
/// and UDP, with the sample server's request log showing what reached the media's origin.
@Suite(.serialized) struct PushAuthenticationTests {
    private static let secret = "s3cret"
    private static let withSecret = VODAppRunner.environment(extra: ["VODAPP_WEBHOOK_SECRET": secret])

    private func payload(on server: SampleServer, key: String, size: Int = 1000) -> Data {
        PayloadBuilder.json([(key: key, title: key, url: server.url("/bytes/\(size).mp4"))])
    }

    /// One request captured off the wire and sent again, as an attacker on the path would: the
    /// same timestamp, signature and body each time.
    @Test func aCapturedSignedPushIsTakenOnceEvenAfterForget() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path, environment: Self.withSecret)
            let body = payload(on: server, key: "captured")
            let signedAt = PushSignature.now()
            #expect(await listener.post(body, wait: true, secret: Self.secret, signedAt: signedAt).status == 200)
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "captured"), count: 1000))

            // Removed and forgotten, the item would be fetched again by a new push: not by this one.
            try FileManager.default.removeItem(atPath: ScratchDirectory.media(scratch.path, "captured"))
            let forget = try await VODAppRunner().run(["forget", "captured", "--dir", scratch.path])
            #expect(forget.exitCode == 0, "\(forget.stderr)")
            for _ in 0..<2 {
                let replay = await listener.post(body, wait: true, secret: Self.secret, signedAt: signedAt)
                #expect(replay.status == 409)
                guard case .failure(.refused(_, let reason)) = replay else { Issue.record("not refused: \(replay)"); continue }
                #expect(reason.contains("already accepted"))
            }
            // Five minutes on, the time alone refuses it.
            let old = await listener.post(body, wait: true, secret: Self.secret, signedAt: PushSignature.now() - 301)
            #expect(old.status == 401)
            #expect(server.requests.count { $0.target == "/bytes/1000.mp4" } == 1)
            #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
            #expect(listener.deliveries.count == 1)
            #expect(listener.process.stderr.contains("refused a push: this signature was already accepted"))

            // The sender signs anew (at another second: the same bytes signed in the same second
            // are the same signature, one push), and the push goes through.
            #expect(await listener.post(body, wait: true, secret: Self.secret, signedAt: signedAt + 1).status == 200)
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "captured"), count: 1000))
            _ = try await listener.stop()
        }
    }

    /// A captured push sent again after the listener restarted (a crash, an upgrade, `systemctl
    /// restart`) within its five minutes: the memory of accepted signatures outlives the process.
    /// (The attacker trial's replay got 200 after a restart.)
    @Test func aCapturedSignedPushIsRefusedAfterARestart() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let body = payload(on: server, key: "captured")
            let signedAt = PushSignature.now()
            let first = try await ListenerUnderTest(dir: scratch.path, environment: Self.withSecret)
            #expect(await first.post(body, wait: true, secret: Self.secret, signedAt: signedAt).status == 200)
            _ = try await first.stop()
            try FileManager.default.removeItem(atPath: ScratchDirectory.media(scratch.path, "captured"))
            #expect(try await VODAppRunner().run(["forget", "captured", "--dir", scratch.path]).exitCode == 0)

            let second = try await ListenerUnderTest(dir: scratch.path, environment: Self.withSecret)
            let replay = await second.post(body, wait: true, secret: Self.secret, signedAt: signedAt)
            #expect(replay.status == 409, "\(replay)")
            #expect(server.requests.count { $0.target == "/bytes/1000.mp4" } == 1)
            #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
            // Signed anew, it goes through.
            #expect(await second.post(body, wait: true, secret: Self.secret, signedAt: signedAt + 1).status == 200)
            _ = try await second.stop()
        }
    }

    /// Two listeners on one DIR (say one for HTTP, one for a broker) share the memory: a push
    /// one of them took is refused by the other. (The second attacker trial's replay to the
    /// other listener got 202, and each overwrote the other's memory.)
    @Test func twoListenersOnOneDIRRefuseEachOthersPushes() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let body = payload(on: server, key: "shared")
            let signedAt = PushSignature.now()
            let one = try await ListenerUnderTest(dir: scratch.path, environment: Self.withSecret)
            let other = try await ListenerUnderTest(dir: scratch.path, environment: Self.withSecret)
            #expect(await one.post(body, wait: true, secret: Self.secret, signedAt: signedAt).status == 200)
            #expect(await other.post(body, wait: true, secret: Self.secret, signedAt: signedAt).status == 409)
            let second = payload(on: server, key: "second", size: 2000)
            #expect(await other.post(second, wait: true, secret: Self.secret, signedAt: signedAt).status == 200)
            // The first's memory was not overwritten by the other's write.
            #expect(await one.post(body, wait: true, secret: Self.secret, signedAt: signedAt).status == 409)
            #expect(await one.post(second, wait: true, secret: Self.secret, signedAt: signedAt).status == 409)
            // The same push to both at the same moment: one takes it (the third attacker trial's
            // race had both take it 19 times in 20).
            for index in 0..<10 {
                let racing = payload(on: server, key: "race\(index)", size: 3000 + index)
                let statuses = await withTaskGroup(of: Int.self) { group in
                    for listener in [one, other] {
                        group.addTask { await listener.post(racing, secret: Self.secret, signedAt: signedAt).status }
                    }
                    return await group.reduce(into: []) { $0.append($1) }.sorted()
                }
                #expect(statuses == [202, 409], "\(index): \(statuses)")
            }
            _ = try await one.stop()
            _ = try await other.stop()
        }
    }

    /// What adnanh/webhook checks, the body-only X-Hub-Signature-256, is not enough for
    /// `vodapp listen`: replayable for ever, it belongs to the webhook host.
    @Test func theBodyOnlySignatureIsRefusedByTheListener() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path, environment: Self.withSecret)
            let body = payload(on: server, key: "hub")
            let signature = WebhookSignature(secret: Self.secret).sign(body)
            let request = "POST /push HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
                + "X-Hub-Signature-256: \(signature)\r\nConnection: close\r\n\r\n"
            let answer = String(decoding: try exchangeRaw(Data(request.utf8) + body, withPort: listener.httpPort, timeout: 5), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
            #expect(answer.contains("is for the adnanh/webhook route"))
            #expect(server.requests.isEmpty)
            #expect(listener.deliveries.isEmpty)
            _ = try await listener.stop()
        }
    }

    @Test func aSecretTurnsUDPOffUnlessItIsAskedForAndThenWarns() async throws {
        let scratch = try ScratchDirectory()
        let off = try await ListenerUnderTest(dir: scratch.child("off"), udp: false, environment: Self.withSecret)
        let endpoints = off.process.jsonLines.compactMap { $0["listening"] as? [String] }.first ?? []
        #expect(endpoints.count == 1 && endpoints.allSatisfy { $0.hasPrefix("http://") }, "\(endpoints)")
        #expect(!off.process.stderr.contains("not authenticated"))
        #expect(try await off.stop() == 143)

        let on = try await ListenerUnderTest(dir: scratch.child("on"), environment: Self.withSecret)
        #expect(on.udpPort != 0)
        #expect(on.process.stderr.contains("UDP pushes are not authenticated"), "\(on.process.stderr)")
        #expect(try await on.stop() == 143)

        // With nothing else on, the listener says what to do rather than listen to nothing.
        let nothing = try await runTool(VODAppRunner.executable, ["listen", "--no-http", "--dir", scratch.child("none")],
                                        environment: Self.withSecret, timeout: .seconds(20))
        #expect(nothing.exited && nothing.exitCode == 64)
        #expect(nothing.stderr.contains("a secret turns UDP off"), "\(nothing.stderr)")
    }

    /// Another local user sends a datagram naming a URL on a server they run: the person's
    /// header, cookie and User-Agent must not reach it. A signed push's requests carry them.
    @Test func onlyAnAuthenticatedPushCarriesTheHeaderTheCookieAndTheUserAgent() async throws {
        let scratch = try ScratchDirectory()
        let cookies = scratch.child("cookies.txt")
        try "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tcookie-secret\n"
            .write(toFile: cookies, atomically: true, encoding: .utf8)
        try await withSampleServer { server in
            let origin = URLComponents(string: server.url("/"))!
            let listener = try await ListenerUnderTest(
                dir: scratch.child("media"),
                arguments: ["--header", "X-Test: open-sesame", "--header-host", "http://127.0.0.1:\(origin.port!)",
                            "--cookies", cookies, "--user-agent", "secret-agent/1"],
                environment: Self.withSecret)
            #expect(listener.process.stderr.contains("items of UDP pushes are fetched without them"), "\(listener.process.stderr)")

            try sendDatagram(payload(on: server, key: "unsigned", size: 1000), toPort: listener.udpPort)
            try await listener.waitForDeliveries(1)
            #expect(await listener.post(payload(on: server, key: "signed", size: 2000), wait: true, secret: Self.secret).status == 200)

            let unsigned = try #require(server.requests.first { $0.target == "/bytes/1000.mp4" })
            #expect(unsigned.header("x-test") == nil && unsigned.header("cookie") == nil, "\(unsigned.headers)")
            #expect(unsigned.header("user-agent")?.contains("secret-agent") == false, "\(unsigned.headers)")
            let signed = try #require(server.requests.first { $0.target == "/bytes/2000.mp4" })
            #expect(signed.header("x-test") == "open-sesame", "\(signed.headers)")
            #expect(signed.header("cookie") == "session=cookie-secret", "\(signed.headers)")
            #expect(signed.header("user-agent") == "secret-agent/1")
            // Both were fetched: the unsigned push is served, only without the credentials.
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.child("media"), "unsigned"), count: 1000))
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.child("media"), "signed"), count: 2000))
            _ = try await listener.stop()
        }
    }

    /// Without a secret, nothing over HTTP is authenticated either.
    @Test func withoutASecretAnHTTPPushIsFetchedWithoutTheCredentials() async throws {
        let scratch = try ScratchDirectory()
        let cookies = scratch.child("cookies.txt")
        try "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tcookie-secret\n"
            .write(toFile: cookies, atomically: true, encoding: .utf8)
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.child("media"), arguments: ["--cookies", cookies])
            #expect(listener.process.stderr.contains("no receiver here authenticates its pushes: no item will be fetched with them"), "\(listener.process.stderr)")
            #expect(await listener.post(payload(on: server, key: "open"), wait: true).status == 200)
            let request = try #require(server.requests.first { $0.target == "/bytes/1000.mp4" })
            #expect(request.header("cookie") == nil, "\(request.headers)")
            _ = try await listener.stop()
        }
    }

    /// A broker with accounts that lets anonymous clients publish too (mosquitto's
    /// `allow_anonymous true` beside a password file): the listener's login vouches for nobody,
    /// so an anonymous publisher's item is fetched without the cookies. (The attacker trial had
    /// the cookies and a bearer header sent for such a message.)
    @Test func aBrokersLoginIsNoVoucherForItsPublishers() async throws {
        let scratch = try ScratchDirectory()
        let cookies = scratch.child("cookies.txt")
        try "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tcookie-secret\n"
            .write(toFile: cookies, atomically: true, encoding: .utf8)
        let broker = try await MosquittoBroker(allowingAnonymous: true)
        try await withSampleServer { server in
            let topic = "vodapp/kiosk"
            let listener = try await ListenerUnderTest(dir: scratch.child("media"),
                                                       arguments: ["--no-udp", "--no-http", "--mqtt", broker.url(topic: topic), "--cookies", cookies])
            #expect(listener.process.stderr.contains("no receiver here authenticates its pushes"), "\(listener.process.stderr)")
            let anonymous = try await runTool("mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-t", topic, "-s"],
                                              stdin: payload(on: server, key: "anonymous"))
            #expect(anonymous.exitCode == 0, "\(anonymous.stderr)")
            _ = try await listener.waitForDeliveries(1)
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.child("media"), "anonymous"), count: 1000))
            let request = try #require(server.requests.first { $0.target == "/bytes/1000.mp4" })
            #expect(request.header("cookie") == nil, "\(request.headers)")
            _ = try await listener.stop()
        }
    }
}
