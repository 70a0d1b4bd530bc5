import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppPush
import VODAppSamples

/// A listener finishes what it was sent on its own: an item cut by the budget, a failure the
/// server said to retry later and an item deferred on a metered connection are delivered again
/// when their next try is due, with no second push. Against nginx on a rate-limited location, the
/// sample server's scripted failures and NetworkManager's dbusmock template.
@Suite(.serialized) struct ListenerRetryTests {
    private func items(_ delivery: [String: Any]) -> [[String: Any]] {
        ((delivery["report"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
    }

    private func status(of key: String, in delivery: [String: Any]) -> String? {
        items(delivery).first { $0["key"] as? String == key }?["status"] as? String
    }

    /// nginx serving `count` bytes as `/slow/NAME` at 150 kB/s.
    private func slowServer(serving name: String, count: Int) async throws -> (NginxServer, bytes: [UInt8]) {
        let nginx = try await NginxServer(serverDirectives: """
            location /slow/ { limit_rate 150k; }
            """)
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try FileManager.default.createDirectory(atPath: nginx.root + "/slow", withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: nginx.root + "/slow/" + name))
        return (nginx, bytes)
    }

    /// 1.2 MB at 150 kB/s is 8 s; with a 3 s budget one push cannot finish it, the listener's
    /// retries resume it until it is whole.
    @Test func aListenerOnASlowLinkFinishesAnItemWithNoSecondPush() async throws {
        let (nginx, bytes) = try await slowServer(serving: "movie.mp4", count: 1_200_000)
        defer { nginx.stop() }
        let scratch = try ScratchDirectory()
        let listener = try await ListenerUnderTest(dir: scratch.path, arguments: ["--budget", "3"])
        let answer = await listener.post(PayloadBuilder.json([(key: "movie", title: "Movie", url: nginx.url("slow/movie.mp4"))]))
        #expect(answer.status == 202)

        try await listener.process.wait(for: "the movie to be placed", timeout: .seconds(90)) {
            listener.deliveries.contains { status(of: "movie", in: $0) == "downloaded" }
        }
        let deliveries = listener.deliveries
        #expect(status(of: "movie", in: deliveries[0]) == "timedOut", "\(deliveries)")
        #expect((deliveries[0]["from"] as? String)?.hasPrefix("http ") == true)
        // Every later delivery is the listener's own.
        #expect(deliveries.dropFirst().allSatisfy { $0["from"] as? String == "retry" }, "\(deliveries)")
        #expect(ScratchDirectory.contents(ScratchDirectory.media(scratch.path, "movie")) == bytes)
        // Each retry resumed past where the last began, and the last one asked only for the rest.
        // (What nginx logs as sent includes what was in flight when a budget cut the transfer,
        // more on a busy machine: the sum is no measure of what vodapp kept.)
        let requests = nginx.requests.filter { $0.uri == "/slow/movie.mp4" }
        #expect(requests.count >= 2)
        #expect(requests.dropFirst().allSatisfy { $0.range != nil && $0.status == 206 }, "\(requests)")
        let starts = requests.map { request in
            request.range.flatMap { Int($0.dropFirst("bytes=".count).prefix { $0.isNumber }) } ?? 0
        }
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 }, "\(requests)")
        #expect(requests.last.map { $0.bodyBytes == bytes.count - (starts.last ?? 0) } == true, "\(requests)")

        let shown = try await VODAppRunner().run(["status", "--dir", scratch.path, "--json"])
        let states = (shown.report?["items"] as? [[String: Any]])?.map { $0["state"] as? String }
        #expect(states == ["fetched"], "\(shown.stdout)")
        #expect(try await listener.stop() == 143)
    }

    /// A server that answers 503 with `Retry-After: 2` past the delivery's own retries: the item
    /// fails, and the listener tries it again once those 2 s are over, not at the next push.
    @Test func aFailureIsRetriedWhenTheServerSaidToRetry() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path, arguments: ["--budget", "6"])
            let url = server.url("/bytes/4000.mp4?fail=3&status=503&retry-after=2")
            let answer = await listener.post(PayloadBuilder.json([(key: "busy", title: "Busy", url: url)]))
            #expect(answer.status == 202)

            let deliveries = try await listener.waitForDeliveries(2, timeout: .seconds(60))
            #expect(status(of: "busy", in: deliveries[0]) == "failed", "\(deliveries)")
            #expect(deliveries[1]["from"] as? String == "retry")
            #expect(status(of: "busy", in: deliveries[1]) == "downloaded", "\(deliveries)")
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "busy"), count: 4000))
            #expect(try await listener.stop() == 143)
        }
    }

    /// Deferred on a metered connection, fetched by the listener once NetworkManager says the
    /// connection is not metered: no push comes in between.
    @Test func aDeferredItemIsFetchedWhenTheConnectionIsNoLongerMetered() async throws {
        let system = try await SystemBus()
        try await system.startNetworkManager(metered: 1)
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: scratch.path, environment: VODAppRunner.environment(systemBus: system.address))
            let answer = await listener.post(PayloadBuilder.json([(key: "later", title: "Later", url: server.url("/bytes/3000.mp4"))]))
            #expect(answer.status == 202)
            let first = try await listener.waitForDeliveries(1)
            #expect(status(of: "later", in: first[0]) == "deferred", "\(first)")
            #expect(server.requests.isEmpty)

            // Still metered: nothing is retried, however long it waits (two looks at the conditions).
            try await Task.sleep(for: .seconds(12))
            #expect(listener.deliveries.count == 1, "\(listener.deliveries)")

            try await system.setMetered(4)
            let deliveries = try await listener.waitForDeliveries(2, timeout: .seconds(40))
            #expect(deliveries[1]["from"] as? String == "retry")
            #expect(status(of: "later", in: deliveries[1]) == "downloaded", "\(deliveries)")
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "later"), count: 3000))
            #expect(try await listener.stop() == 143)
        }
    }

    /// What a push brought that is not done when the listener starts (cut by an earlier run's
    /// budget) is resumed by the listener at its start.
    @Test func aListenerStartingOnACutItemResumesIt() async throws {
        let (nginx, bytes) = try await slowServer(serving: "clip.mp4", count: 600_000)
        defer { nginx.stop() }
        let scratch = try ScratchDirectory()
        let cut = try await VODAppRunner().run(["-", "--dir", scratch.path, "--json", "--no-notify", "--budget", "2"],
                                               stdin: PayloadBuilder.json([(key: "clip", title: "Clip", url: nginx.url("slow/clip.mp4"))]))
        #expect(cut.exitCode == 75, "\(cut.stdout)")

        let listener = try await ListenerUnderTest(dir: scratch.path)
        let deliveries = try await listener.waitForDeliveries(1, timeout: .seconds(60))
        #expect(deliveries[0]["from"] as? String == "retry")
        #expect(status(of: "clip", in: deliveries[0]) == "downloaded", "\(deliveries)")
        #expect(ScratchDirectory.contents(ScratchDirectory.media(scratch.path, "clip")) == bytes)
        #expect(try await listener.stop() == 143)
    }
}
