import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// Delivering again, side by side, after a cut, a signal or a crash: the built `vodapp` against
/// the sample server, as a user would meet it.
@Suite(.serialized) struct RedeliveryTests {
    let runner = VODAppRunner()

    private func write(_ payload: Data, in scratch: ScratchDirectory) throws -> String {
        let path = scratch.child("push.json")
        try payload.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func deliveringTwiceFetchesNothingTwiceAndADeletedFileOnlyWhenAskedFor() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payload = try write(PayloadBuilder.json([
                (key: "a", title: "A", url: server.url("/bytes/1000.mp4")),
                (key: "b", title: "B", url: server.url("/bytes/2000.mp4")),
            ]), in: scratch)
            let first = try await runner.run([payload, "--dir", dir, "--json", "--no-notify"])
            #expect(first.exitCode == 0)
            #expect(server.requests.count == 2)

            let second = try await runner.run([payload, "--dir", dir, "--json", "--no-notify"])
            #expect(second.exitCode == 0)
            #expect(second.report?["result"] as? String == "noData")
            #expect(second.items.map { $0["status"] as? String } == ["alreadyPresent", "alreadyPresent"])
            #expect(server.requests.count == 2, "a present item was requested again")

            // The user deleted it: that is remembered, as gPodder does, not undone by the next push.
            try FileManager.default.removeItem(atPath: ScratchDirectory.media(dir, "b"))
            let third = try await runner.run([payload, "--dir", dir, "--json", "--no-notify"])
            #expect(third.exitCode == 0)
            #expect(third.report?["result"] as? String == "noData")
            #expect(third.item("a")?["status"] as? String == "alreadyPresent")
            #expect(third.item("b")?["status"] as? String == "removed")
            #expect((third.item("b")?["error"] as? String)?.contains("vodapp forget b") == true, "\(third.stdout)")
            #expect(third.item("b")?["path"] == nil)
            #expect(server.requests.count == 2, "a removed item was requested again")
            #expect(ScratchDirectory.visibleMedia(dir) == ["A [a].mp4"])

            let status = try await runner.run(["status", "--dir", dir, "--json"])
            let items = status.report?["items"] as? [[String: Any]] ?? []
            #expect(items.first { $0["key"] as? String == "b" }?["state"] as? String == "removed", "\(status.stdout)")

            // Asked for it back, once, with --refetch-removed; then for good with forget.
            let asked = try await runner.run([payload, "--dir", dir, "--json", "--no-notify", "--refetch-removed"])
            #expect(asked.item("b")?["status"] as? String == "downloaded")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "b"), count: 2000))
            try FileManager.default.removeItem(atPath: ScratchDirectory.media(dir, "b"))
            let removedAgain = try await runner.run([payload, "--dir", dir, "--json", "--no-notify"])
            #expect(removedAgain.item("b")?["status"] as? String == "removed")

            let forget = try await runner.run(["forget", "--dir", dir, "b", "a"])
            #expect(forget.exitCode == 0)
            #expect(forget.stdout == "forgot b: the next push naming it fetches it again\n", "\(forget.stdout)")
            #expect(forget.stderr.contains("a was not removed from \(dir): nothing to forget"), "\(forget.stderr)")
            let fourth = try await runner.run([payload, "--dir", dir, "--json", "--no-notify"])
            #expect(fourth.item("b")?["status"] as? String == "downloaded")
            #expect(server.requests.map(\.target).suffix(1) == ["/bytes/2000.mp4"])
            #expect(server.requests.count == 4)
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "b"), count: 2000))

            let notAKey = try await runner.run(["forget", "--dir", dir, "../b"])
            #expect(notAKey.exitCode == 64)
        }
    }

    /// An item with no declared length costs the whole limit to find too large: it is not asked
    /// again at the same limit (the new-user trial saw 20 MiB a push), and is with a larger one.
    /// One with a Content-Length cost only its headers, but a box pushed to every few minutes
    /// asked for them every time: it is not asked again for a day, unless the limit rises.
    @Test func anOversizedItemIsNotFetchedAgainAtTheSameLimit() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payload = try write(PayloadBuilder.json([
                (key: "chunked", title: "Chunked", url: server.url("/chunked/300000.mp4")),
                (key: "declared", title: "Declared", url: server.url("/bytes/300000.mp4")),
            ]), in: scratch)
            func requests(_ prefix: String) -> Int { server.requests.filter { $0.target.hasPrefix(prefix) }.count }
            let first = try await runner.run([payload, "--dir", dir, "--json", "--no-notify", "--max-size", "100K"])
            #expect(first.exitCode == 0)
            #expect(first.items.map { $0["status"] as? String } == ["tooLarge", "tooLarge"])

            let second = try await runner.run([payload, "--dir", dir, "--json", "--no-notify", "--max-size", "100K"])
            #expect(second.exitCode == 0)
            #expect(second.items.map { $0["status"] as? String } == ["tooLarge", "tooLarge"])
            #expect((second.item("chunked")?["error"] as? String)?.contains("not fetched again unless --max-size is above that") == true,
                    "\(second.stdout)")
            #expect((second.item("declared")?["error"] as? String)?.contains("it declared 300000 bytes when last asked, at ") == true,
                    "\(second.stdout)")
            #expect(requests("/chunked/") == 1)
            #expect(requests("/bytes/") == 1)

            let larger = try await runner.run([payload, "--dir", dir, "--json", "--no-notify", "--max-size", "1M"])
            #expect(larger.items.map { $0["status"] as? String } == ["downloaded", "downloaded"], "\(larger.stdout)")
            #expect(requests("/chunked/") == 2)
            #expect(requests("/bytes/") == 2)
        }
    }

    @Test func fourProcessesAtOnceFetchEachItemExactlyOnce() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        // About a second per item, so that the four runs overlap.
        try await withSampleServer(rate: 1 << 20) { server in
            let sizes: [Int64] = [1 << 20, 900_000, 700_000]
            let payload = try write(PayloadBuilder.json(sizes.enumerated().map { index, size in
                (key: "item\(index)", title: "Item \(index)", url: server.url("/bytes/\(size).mp4"))
            }), in: scratch)
            let runs = try await withThrowingTaskGroup(of: VODAppRunner.Run.self) { group in
                for _ in 0..<4 { group.addTask { try await runner.run([payload, "--dir", dir, "--json", "--no-notify"]) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(runs.map(\.exitCode) == [0, 0, 0, 0], "\(runs.map(\.stderr))")
            #expect(server.requests.count == 3, "\(server.requests.map(\.target))")
            #expect(server.requests.allSatisfy { $0.header("range") == nil })
            for (index, size) in sizes.enumerated() {
                #expect(holdsSampleBytes(ScratchDirectory.media(dir, "item\(index)"), count: size))
                let statuses = runs.compactMap { $0.item("item\(index)")?["status"] as? String }
                #expect(statuses.sorted() == ["alreadyPresent", "alreadyPresent", "alreadyPresent", "downloaded"], "\(statuses)")
            }
        }
    }

    @Test(arguments: [false, true])
    func aTransferCutByTheBudgetResumesWhereItStopped(serverIgnoresRanges: Bool) async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let size: Int64 = 6 << 20
            // 6 s at this rate: cut by a 4 s budget, with bytes kept however late a loaded
            // machine starts it (1.5 s left one run 640 KiB).
            let query = "rate=\(1 << 20)" + (serverIgnoresRanges ? "&ranges=ignore" : "")
            let payload = try write(PayloadBuilder.json([(key: "big", title: "Big", url: server.url("/bytes/\(size).mp4?\(query)"))]), in: scratch)

            let cut = try await runner.run([payload, "--dir", dir, "--json", "--no-notify", "--budget", "4"])
            #expect(cut.exitCode == 75)
            #expect(cut.item("big")?["status"] as? String == "timedOut")
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty, "a partial file is visible")
            let kept = Int64(ScratchDirectory.contents(dir + "/.vodapp/partial/big.part")?.count ?? 0)

            let resumed = try await runner.run([payload, "--dir", dir, "--json", "--no-notify"])
            #expect(resumed.exitCode == 0, "\(resumed.stderr)")
            #expect(resumed.item("big")?["status"] as? String == "downloaded")
            #expect(resumed.item("big")?["bytes"] as? Int64 == size)
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "big"), count: size))
            // The fingerprint the store keeps for a body fetched in two responses is that of the
            // file's bytes, as OpenSSL computes it from its definition (`FileFingerprint`).
            let fingerprint = try await runTool("python3", ["-c", Self.fingerprintCheck, dir + "/.vodapp/state.sqlite", "big",
                                                            ScratchDirectory.media(dir, "big")])
            #expect(fingerprint.stdout == "k1 True\n", "\(fingerprint.stdout) \(fingerprint.stderr)")

            let second = try #require(server.requests.last)
            let range = try #require(second.header("range"), "the second delivery did not ask for the rest")
            let offset = try #require(Int64(range.dropFirst("bytes=".count).dropLast()))
            #expect(range.hasPrefix("bytes=") && range.hasSuffix("-"))
            // Where the cut left it: the bytes kept, asked for no earlier and no later.
            #expect(kept > 0 && offset == kept, "kept \(kept), asked from \(offset)")
            #expect(second.header("if-range") == "\"sample-\(size)\"")
            if serverIgnoresRanges {
                #expect(second.bodyBytesSent == size)
            } else {
                #expect(second.bodyBytesSent == size - offset)
            }
            #expect(ScratchDirectory.allEntries(dir + "/.vodapp/partial").isEmpty)
        }
    }

    /// Prints whether the store's fingerprint of an item's file (argv: store, key, file) is the
    /// GMAC of each 128 KiB block under the store's key, the block's number its nonce, hashed
    /// with the length: computed here with OpenSSL, through Python's `cryptography`.
    static let fingerprintCheck = """
        import sqlite3, sys, hashlib
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        db = sqlite3.connect(sys.argv[1])
        (key,) = db.execute("SELECT key FROM fingerprintKey").fetchone()
        (recorded,) = db.execute("SELECT fingerprint FROM item WHERE key = ?", (sys.argv[2],)).fetchone()
        data = open(sys.argv[3], "rb").read()
        gmac = AESGCM(key)
        tags = b"".join(gmac.encrypt(bytes(4) + n.to_bytes(8, "big"), b"", data[at:at + 131072])
                        for n, at in enumerate(range(0, len(data), 131072)))
        print(recorded[:2], recorded == "k1:" + hashlib.sha256(tags + len(data).to_bytes(8, "little")).hexdigest())
        """

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130)), (SIGHUP, Int32(129))])
    func aSignalMidTransferExitsWithinASecondAndLeavesNothingVisible(signal: Int32, expected: Int32) async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer(rate: 1 << 20) { server in
            let payload = try write(PayloadBuilder.json([
                (key: "slow", title: "Slow", url: server.url("/bytes/\(8 << 20).mp4")),
                (key: "small", title: "Small", url: server.url("/bytes/1000.mp4")),
            ]), in: scratch)
            let process = try await RunningProcess(VODAppRunner.executable, [payload, "--dir", dir, "--json", "--no-notify"],
                                                   environment: VODAppRunner.environment())
            try await process.wait(for: "the transfer to be under way") {
                server.requests.contains { $0.target.hasPrefix("/bytes/\(8 << 20)") && $0.bodyBytesSent > 100_000 }
            }
            let sent = ContinuousClock.now
            process.signal(signal)
            let status = try await process.exitStatus(timeout: .seconds(5))
            // When the system saw it end, not when this test next looked.
            let took = sent.duration(to: try #require(process.endedAt))
            #expect(status == expected)
            #expect(took < TimeBound.duration(.seconds(1)), "took \(took)")
            #expect(ScratchDirectory.visibleMedia(dir) == ["Small [small].mp4"])
            let report = try #require((try? JSONSerialization.jsonObject(with: Data(process.stdout.utf8))) as? [String: Any])
            let slow = (report["items"] as? [[String: Any]])?.first { $0["key"] as? String == "slow" }
            #expect(slow?["status"] as? String == "timedOut")
            #expect((slow?["error"] as? String)?.contains([SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"][signal] ?? "?") == true)
        }
    }

    /// `nohup` starts vodapp with SIGHUP ignored, to outlive the terminal: then a hangup mid-run
    /// changes nothing, and the run ends as it would have.
    @Test func underNohupAHangupIsIgnored() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer(rate: 2 << 20) { server in
            let payload = try write(PayloadBuilder.json([(key: "slow", title: "Slow", url: server.url("/bytes/\(2 << 20).mp4"))]), in: scratch)
            let process = try await RunningProcess("/usr/bin/nohup", [VODAppRunner.executable, payload, "--dir", dir, "--json", "--no-notify"],
                                                   environment: VODAppRunner.environment())
            try await process.wait(for: "the transfer to be under way") {
                server.requests.contains { $0.bodyBytesSent > 100_000 }
            }
            process.signal(SIGHUP)
            #expect(try await process.exitStatus(timeout: .seconds(30)) == 0, "\(process.stderr)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "slow"), count: 2 << 20))
        }
    }

    @Test func afterSIGKILLMidTransferTheNextDeliveryResumesIt() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let size: Int64 = 4 << 20
        try await withSampleServer { server in
            let payload = try write(PayloadBuilder.json([(key: "k", title: "K", url: server.url("/bytes/\(size).mp4?rate=\(1 << 20)"))]), in: scratch)
            let process = try await RunningProcess(VODAppRunner.executable, [payload, "--dir", dir, "--no-notify"],
                                                   environment: VODAppRunner.environment())
            try await process.wait(for: "the transfer to be under way") {
                server.requests.first.map { $0.bodyBytesSent > 200_000 } == true
            }
            process.signal(SIGKILL)
            _ = try await process.exitStatus()
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
            let kept = try #require(FileManager.default.attributesOfItem(atPath: dir + "/.vodapp/partial/k.part")[.size] as? Int64)
            // Status tells what the file holds, not what the store heard when the body began.
            let status = try await runner.run(["status", "--dir", dir, "--json"])
            let partial = (status.report?["items"] as? [[String: Any]])?.first { $0["key"] as? String == "k" }
            #expect(partial?["state"] as? String == "partial", "\(status.stdout)")
            #expect((partial?["bytes"] as? NSNumber)?.int64Value == kept, "\(status.stdout)")

            let next = try await runner.run([payload, "--dir", dir, "--json", "--no-notify"])
            #expect(next.exitCode == 0, "\(next.stderr)")
            #expect(next.item("k")?["status"] as? String == "downloaded")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "k"), count: size))
            // The store heard the transfer was resumable as its body began, not only when it
            // ended: the killed process's bytes were resumed, not fetched again.
            let requests = server.requests
            try #require(requests.count == 2, "\(requests.map(\.target))")
            #expect(requests[1].header("range") == "bytes=\(kept)-", "kept \(kept): \(requests[1].headers)")
            #expect(requests[1].bodyBytesSent == size - kept)
        }
    }

    @Test func a503WithRetryAfterIsRetriedAndA404IsNot() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payload = try write(PayloadBuilder.json([
                (key: "flaky", title: "Flaky", url: server.url("/bytes/3000.mp4?fail=1&status=503&retry-after=1")),
                (key: "gone", title: "Gone", url: server.url("/status/404")),
            ]), in: scratch)
            let run = try await runner.run([payload, "--dir", dir, "--json", "--no-notify", "--budget", "10"])
            // The 503 passed on its retry; the 404 fails for good.
            #expect(run.exitCode == 69)
            #expect(run.item("gone")?["final"] as? Bool == true)
            #expect(run.item("flaky")?["status"] as? String == "downloaded")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "flaky"), count: 3000))
            #expect(run.item("gone")?["status"] as? String == "failed")
            #expect(run.item("gone")?["httpStatus"] as? Int == 404)

            let flaky = server.requests.filter { $0.target.hasPrefix("/bytes/3000") }
            #expect(flaky.count == 2)
            if flaky.count == 2 {
                // Retry-After: 1 was honoured.
                #expect(flaky[0].started.duration(to: flaky[1].started) >= .milliseconds(950))
            }
            #expect(server.requests.filter { $0.target == "/status/404" }.count == 1)
        }
    }
}
