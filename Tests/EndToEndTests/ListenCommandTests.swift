import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppPush
import VODAppSamples

/// `vodapp listen` as a user runs it: the built executable on free loopback ports, pushed to over
/// UDP (the simulator protocol) and HTTP, with a real sample server behind the playlist.
@Suite(.serialized) struct ListenCommandTests {
    private func payload(on server: SampleServer, sizes: [Int] = [1000, 2000]) -> Data {
        PayloadBuilder.json(sizes.enumerated().map { index, size in
            (key: "item\(index)", title: "Item \(index)", url: server.url("/bytes/\(size).mp4"))
        })
    }

    private func items(_ delivery: [String: Any]) -> [[String: Any]] {
        ((delivery["report"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
    }

    @Test func aPlainUDPDatagramIsDelivered() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path)
            try sendDatagram(payload(on: server), toPort: listener.udpPort)

            let delivery = try #require(try await listener.waitForDeliveries(1).first)
            #expect((delivery["from"] as? String)?.hasPrefix("udp 127.0.0.1:") == true)
            #expect((delivery["report"] as? [String: Any])?["result"] as? String == "newData")
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "item0"), count: 1000))
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "item1"), count: 2000))
            #expect(try await listener.stop() == 143)
        }
    }

    @Test func vodappPushSendDeliversOverUDP() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.child("media"))
            let file = scratch.child("push.json")
            _ = FileManager.default.createFile(atPath: file, contents: payload(on: server))
            let send = try await VODAppRunner(tool: "vodapp-push").run(["send", file, "--to", "udp://127.0.0.1:\(listener.udpPort)"])
            #expect(send.exitCode == 0, "\(send.stderr)")

            try await listener.waitForDeliveries(1)
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.child("media"), "item0"), count: 1000))
            #expect(try await listener.stop() == 143)
        }
    }

    @Test func aSixtyKiBDatagramArrivesWhole() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path)
            // The playlist comes after the padding, so a datagram cut anywhere loses it.
            let head = #"{"aps":{"content-available":1},"pad":""#
            let tail = #"","playlist":{"last":{"title":"Last","url":"\#(server.url("/bytes/3000.mp4"))"}}}"#
            let size = 60 * 1024
            let text = head + String(repeating: "x", count: size - head.utf8.count - tail.utf8.count) + tail
            #expect(text.utf8.count == size)
            try sendDatagram(Data(text.utf8), toPort: listener.udpPort)

            let delivery = try #require(try await listener.waitForDeliveries(1).first)
            #expect(items(delivery).first?["status"] as? String == "downloaded")
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "last"), count: 3000))
            _ = try await listener.stop()
        }
    }

    @Test func anHTTPPushIsAcceptedWith202AndThenDelivered() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path)
            let answer = await listener.post(payload(on: server))
            #expect(answer.status == 202)
            let id = try #require(answer.json?["delivery"] as? String)

            let delivery = try #require(try await listener.waitForDeliveries(1).first)
            #expect(delivery["delivery"] as? String == id)
            #expect((delivery["from"] as? String)?.hasPrefix("http 127.0.0.1:") == true)
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "item1"), count: 2000))
            _ = try await listener.stop()
        }
    }

    @Test func waitingForTheDeliveryReturnsTheReport() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path)
            let answer = await listener.post(payload(on: server), wait: true)
            #expect(answer.status == 200)
            let report = try #require(answer.json)
            #expect(report["result"] as? String == "newData")
            // An unsigned push's report leaves DIR's path out (`DeliveryReport.redacted`).
            #expect(report["directory"] == nil)
            if case .success(.accepted(_, let body)) = answer { #expect(!body.contains(scratch.path), "\(body)") }
            let statuses = (report["items"] as? [[String: Any]])?.compactMap { $0["status"] as? String }
            #expect(statuses == ["downloaded", "downloaded"])
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "item0"), count: 1000))
            _ = try await listener.stop()
        }
    }

    @Test func withASecretOnlySignedPushesAreAccepted() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(
                dir: scratch.path, arguments: ["--verbose"],
                environment: VODAppRunner.environment(extra: ["VODAPP_WEBHOOK_SECRET": "s3cret"]))
            let body = payload(on: server)

            #expect(await listener.post(body).status == 401)
            #expect(await listener.post(body, secret: "wrong").status == 401)
            // A signature of other bytes is as wrong as a wrong secret.
            #expect(await listener.post(body + Data(" ".utf8), secret: nil).status == 401)
            #expect(server.requests.isEmpty, "a refused push reached the media server")
            #expect(listener.deliveries.isEmpty)

            #expect(await listener.post(body, secret: "s3cret").status == 202)
            try await listener.waitForDeliveries(1)
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "item0"), count: 1000))
            _ = try await listener.stop()
            // Even at --verbose, the secret is never logged.
            #expect(!listener.process.stderr.contains("s3cret") && !listener.process.stdout.contains("s3cret"))
        }
    }

    @Test func garbageOnBothPortsLeavesTheListenerAnswering() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path)
            var generator = SystemRandomNumberGenerator()
            for size in [0, 1, 512, 4096, 65_507] {
                try sendDatagram(Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }), toPort: listener.udpPort)
            }
            try sendDatagram(Data("{\"message\":\"message\"}".utf8), toPort: listener.udpPort)
            _ = try exchangeRaw(Data("\u{0}\u{1}GARBAGE / HTTP/9.9\r\n\r\n".utf8), withPort: listener.httpPort)
            _ = try exchangeRaw(Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) }), withPort: listener.httpPort)

            let health = try httpGet(port: listener.httpPort, path: "/health")
            #expect(health.status == 200)
            #expect(health.body.contains("\"status\":\"ok\""))
            #expect(listener.process.stderr.contains("dropped a datagram: invalid payload"))

            try sendDatagram(payload(on: server), toPort: listener.udpPort)
            try await listener.waitForDeliveries(1)
            #expect(listener.deliveries.count == 1)
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "item0"), count: 1000))
            #expect(try await listener.stop() == 143)
        }
    }

    /// Another method on a path the listener has is 405 with the one it takes (`Allow`), not 404.
    @Test func theWrongMethodOnAKnownPathIs405WithAllow() async throws {
        let scratch = try ScratchDirectory()
        let listener = try await ListenerUnderTest(dir: scratch.path)
        let get = String(decoding: try exchangeRaw(Data("GET /push HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                                                   withPort: listener.httpPort), as: UTF8.self).lowercased()
        #expect(get.hasPrefix("http/1.1 405"), "\(get)")
        #expect(get.contains("allow: post"), "\(get)")
        let delete = String(decoding: try exchangeRaw(Data("DELETE /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                                                      withPort: listener.httpPort), as: UTF8.self).lowercased()
        #expect(delete.hasPrefix("http/1.1 405") && delete.contains("allow: get"), "\(delete)")
        #expect(try httpGet(port: listener.httpPort, path: "/nothing").status == 404)
        #expect(try await listener.stop() == 143)
    }

    /// A flood of garbage costs a few log lines, not a line each (WarningLimiterTests: and a count).
    @Test func aFloodOfGarbageWritesAFewLines() async throws {
        let scratch = try ScratchDirectory()
        let listener = try await ListenerUnderTest(dir: scratch.path)
        for _ in 0..<2_000 {
            try sendDatagram(Data("not a push".utf8), toPort: listener.udpPort)
        }
        for _ in 0..<50 {
            _ = try exchangeRaw(Data("POST /push HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}".utf8), withPort: listener.httpPort)
        }
        let health = try httpGet(port: listener.httpPort, path: "/health")
        #expect(health.status == 200)
        #expect(try await listener.stop() == 143)
        let lines = listener.process.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("dropped a datagram") }.count <= 5, "\(lines.count) lines")
        #expect(lines.filter { $0.contains("refused a push") }.count <= 5, "\(lines.count) lines")
        #expect(lines.count < 40, "\(lines.count) lines: \(lines.prefix(50))")
    }

    @Test func theSamePushFiveTimesAtOnceFetchesEachItemOnce() async throws {
        let scratch = try ScratchDirectory()
        // Slow enough that the five deliveries overlap.
        try await withSampleServer(rate: 2 << 20) { server in
            let listener = try await ListenerUnderTest(dir: scratch.path)
            let body = payload(on: server, sizes: [1 << 20, 1 << 19, 3000])
            let answers = await withTaskGroup(of: Result<PushSender.Receipt, PushError>.self) { group in
                for _ in 0..<5 { group.addTask { await listener.post(body, wait: true) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.map(\.status) == [200, 200, 200, 200, 200])

            var perPath: [String: Int] = [:]
            for request in server.requests { perPath[request.target, default: 0] += 1 }
            #expect(perPath.count == 3 && perPath.values.allSatisfy { $0 == 1 }, "\(perPath)")

            for key in ["item0", "item1", "item2"] {
                let statuses = answers.compactMap { answer in
                    (answer.json?["items"] as? [[String: Any]])?.first { $0["key"] as? String == key }?["status"] as? String
                }
                #expect(statuses.count(where: { $0 == "downloaded" }) == 1, "\(key): \(statuses)")
                #expect(statuses.count(where: { $0 == "alreadyPresent" }) == 4, "\(key): \(statuses)")
            }
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "item0"), count: 1 << 20))
            #expect(ScratchDirectory.visibleMedia(scratch.path) == ["Item 0 [item0].mp4", "Item 1 [item1].mp4", "Item 2 [item2].mp4"])
            _ = try await listener.stop()
        }
    }

    @Test func aFullQueueAnswers429() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path, arguments: ["--queue", "1", "--parallel", "1", "--budget", "3"])
            let stalled = PayloadBuilder.json([(key: "stall", title: "Stall", url: server.url("/stall-body/1000"))])
            #expect(await listener.post(stalled).status == 202)
            try await listener.process.wait(for: "the first delivery to start") { !server.requests.isEmpty }
            #expect(await listener.post(stalled).status == 202)
            let refused = await listener.post(stalled)
            #expect(refused.status == 429)
            guard case .failure(.refused(_, let reason)) = refused else { return }
            #expect(reason.contains("queue is full"))
            try await listener.waitForDeliveries(2)
            _ = try await listener.stop()
        }
    }

    /// A push that waited its turn in the queue has spent that much of its budget, which counts
    /// from its arrival: an item it could not finish says so, rather than only that the budget ran
    /// out before the server answered.
    @Test func aDeliveryThatWaitedInTheQueueSaysHowLateItBegan() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path, arguments: ["--parallel", "1", "--budget", "3"])
            let first = PayloadBuilder.json([(key: "stall", title: "Stall", url: server.url("/stall-body/1000"))])
            #expect(await listener.post(first).status == 202)
            try await listener.process.wait(for: "the first delivery to start") { !server.requests.isEmpty }
            let second = PayloadBuilder.json([(key: "late", title: "Late", url: server.url("/stall-headers"))])
            #expect(await listener.post(second).status == 202)
            let deliveries = try await listener.waitForDeliveries(2)
            let late = deliveries.compactMap { ($0["report"] as? [String: Any])?["items"] as? [[String: Any]] }
                .flatMap { $0 }.first { $0["key"] as? String == "late" }
            #expect(late?["status"] as? String == "timedOut")
            let reason = late?["error"] as? String ?? ""
            #expect(reason.hasPrefix("the budget ran out before the server answered; the delivery began "), "\(reason)")
            #expect(reason.hasSuffix(" s into its budget"), "\(reason)")
            #expect(listener.process.stderr.contains("the delivery began "), "\(listener.process.stderr)")
            _ = try await listener.stop()
        }
    }

    /// A signal stops the listener as it stops `vodapp handle`: the delivery in flight is cut at
    /// once and the queued one before it fetches, the listener is gone within the contract's 2 s
    /// with 128 + the signal, the partial is kept, and the next delivery of the payload resumes it.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130)), (SIGHUP, Int32(129))])
    func aSignalCutsTheDeliveriesAndTheNextDeliveryResumes(signal: Int32, expected: Int32) async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let size: Int64 = 4 << 20
        try await withSampleServer(rate: 1 << 20) { server in
            let listener = try await ListenerUnderTest(dir: dir, arguments: ["--parallel", "1"])
            let body = PayloadBuilder.json([(key: "slow", title: "Slow", url: server.url("/bytes/\(size).mp4"))])
            #expect(await listener.post(body).status == 202)
            try await listener.process.wait(for: "the transfer to be under way") {
                server.requests.contains { $0.bodyBytesSent > 200_000 }
            }
            // One delivery at a time: this one waits in the queue.
            let queued = PayloadBuilder.json([(key: "queued", title: "Queued", url: server.url("/bytes/3000.mp4"))])
            #expect(await listener.post(queued).status == 202)

            let sent = ContinuousClock.now
            listener.process.signal(signal)
            let status = try await listener.process.exitStatus(timeout: .seconds(10))
            // When the system saw it end, not when this test next looked.
            let took = sent.duration(to: try #require(listener.process.endedAt))
            #expect(status == expected)
            #expect(took < TimeBound.duration(.seconds(2)), "took \(took)")

            // Both deliveries were reported, cut by the signal, and nothing of them is in DIR.
            let name = [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"][signal] ?? "?"
            let deliveries = listener.deliveries
            #expect(deliveries.count == 2, "\(listener.process.stdout)")
            for delivery in deliveries {
                let item = items(delivery).first
                #expect(item?["status"] as? String == "timedOut", "\(delivery)")
                #expect((item?["error"] as? String)?.contains(name) == true, "\(delivery)")
            }
            #expect(!server.requests.contains { $0.target.hasPrefix("/bytes/3000") }, "the queued delivery fetched")
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
            let cutAt = server.requests.first?.bodyBytesSent ?? 0

            // The next delivery takes up where the signal cut.
            let file = scratch.child("push.json")
            try body.write(to: URL(fileURLWithPath: file))
            let next = try await VODAppRunner().run([file, "--dir", dir, "--json", "--no-notify"])
            #expect(next.exitCode == 0, "\(next.stderr)")
            let resume = server.requests.last
            #expect(server.requests.count == 2)
            #expect(resume?.header("range")?.hasPrefix("bytes=") == true, "\(String(describing: resume))")
            #expect((resume?.bodyBytesSent ?? size) <= size - cutAt + 1)
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "slow"), count: size))
        }
    }

    /// Another process cannot bind the listener's UDP port beside it, even asking to share it,
    /// and so cannot take the pushes meant for it.
    @Test func theUDPPortCannotBeSharedWithAnotherProcess() async throws {
        let scratch = try ScratchDirectory()
        let listener = try await ListenerUnderTest(dir: scratch.path)
        let bind = try await runTool("/usr/bin/python3", ["-c", """
            import socket, sys
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", int(sys.argv[1])))
                print("bound")
            except OSError as error:
                print(error.strerror)
            """, "\(listener.udpPort)"])
        #expect(bind.stdout == "Address already in use\n", "\(bind.stdout) \(bind.stderr)")
        _ = try await listener.stop()
    }

    @Test func aPortInUseIsAOneLineErrorAndExit69() async throws {
        let scratch = try ScratchDirectory()
        let first = try await ListenerUnderTest(dir: scratch.path)
        let run = try await VODAppRunner().run(["listen", "--no-udp", "--http", "127.0.0.1:\(first.httpPort)", "--dir", scratch.path])
        #expect(run.exitCode == 69)
        #expect(run.stderr == "vodapp: cannot listen on http 127.0.0.1:\(first.httpPort): Address already in use, by another vodapp "
                + "or another program; stop it, or choose another port with --http (or --no-http)\n", "\(run.stderr)")
        let udp = try await VODAppRunner().run(["listen", "--no-http", "--udp", "127.0.0.1:\(first.udpPort)", "--dir", scratch.path])
        #expect(udp.exitCode == 69)
        #expect(udp.stderr == "vodapp: cannot listen on udp 127.0.0.1:\(first.udpPort): Address already in use, by another vodapp "
                + "or another program; stop it, or choose another port with --udp (or --no-udp)\n", "\(udp.stderr)")
        _ = try await first.stop()
    }

    /// A port out of range is named as such, not as an address of the wrong form.
    @Test func aPortOutOfRangeSaysSo() async throws {
        let run = try await VODAppRunner().run(["listen", "--udp", "127.0.0.1:99999"])
        #expect(run.exitCode == 64)
        #expect(run.stderr.contains("invalid for '--udp <host:port>': the port must be from 0 to 65535, not 99999"), "\(run.stderr)")
    }
}
