import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// A push that anyone who can reach the listener could send (an unsigned HTTP push, a UDP
/// datagram) may not make room by removing what a source that vouches for its pushes brought
/// (a payload file, a poll, a signed push): the built `vodapp`, a real listener, the sample
/// server. Before, one unsigned push to a listener with `--max-total` had retention remove the
/// user's older media (seventh attacker trial, F6).
@Suite struct UnvouchedPushRetentionTests {
    let runner = VODAppRunner()
    static let mebibyte = 1 << 20

    private func payload(_ keys: [String], _ server: SampleServer) -> Data {
        PayloadBuilder.json(keys.map { (key: $0, title: $0.uppercased(), url: server.url("/bytes/\(Self.mebibyte).mp4?\($0)")) })
    }

    /// As if `key`'s file had been placed `days` ago: its time, and the store's record of it.
    private func placedEarlier(_ key: String, in dir: String, days: Double) async throws {
        let when = Date(timeIntervalSinceNow: -days * 86_400)
        try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: ScratchDirectory.media(dir, key))
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        let script = "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('UPDATE item SET updatedAt = ? WHERE key = ?', sys.argv[2:]); db.commit()"
        let run = try await runTool("python3", ["-c", script, dir + "/.vodapp/state.sqlite", formatter.string(from: when), key])
        #expect(run.exitCode == 0, "\(run.stderr)")
    }

    private func present(_ dir: String, _ keys: [String]) -> [String] {
        keys.filter { FileManager.default.fileExists(atPath: ScratchDirectory.media(dir, $0)) }
    }

    @Test func anUnsignedPushRemovesOnlyWhatUnsignedPushesBrought() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let limit = ["--max-total", "3m"]
            // The user's own deliveries, from a payload file: 3 and 2 days old.
            let mine = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"] + limit, stdin: payload(["mine1", "mine2"], server))
            #expect(mine.exitCode == 0, "\(mine.stderr)")
            try await placedEarlier("mine1", in: dir, days: 3)
            try await placedEarlier("mine2", in: dir, days: 2)

            let listener = try await ListenerUnderTest(dir: dir, arguments: limit)
            // An unsigned push, a day old: 3 MiB in all, at the limit.
            #expect(await listener.post(payload(["open1"], server), wait: true).status == 200)
            try await placedEarlier("open1", in: dir, days: 1)
            // Another: 2 MiB more. Only what unsigned pushes brought may go for it.
            #expect(await listener.post(payload(["x1", "x2"], server), wait: true).status == 200)
            #expect(present(dir, ["mine1", "mine2", "open1", "x1", "x2"]) == ["mine1", "mine2", "x1", "x2"])
            _ = try await listener.stop()
            // The warning says why the limit is not met, and only what applied.
            #expect(listener.process.stderr.contains(
                "over --max-total 3.0 MiB, and none is left that retention may remove: kept are 2 files of this delivery and 2 files "
                + "that a payload file, a poll or a signed push named, which an unauthenticated push such as this one may not make "
                + "room by removing"), "\(listener.process.stderr)")

            // The user's next delivery names x1, already there (it is the user's from now on),
            // and brings mine3: what unsigned pushes alone brought goes first, then the oldest.
            try await placedEarlier("x1", in: dir, days: 0.5)
            try await placedEarlier("x2", in: dir, days: 0.5)
            let next = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"] + limit, stdin: payload(["x1", "mine3"], server))
            #expect(next.exitCode == 0, "\(next.stderr)")
            let removed = (next.report?["removed"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
            #expect(removed == ["x2", "mine1"])
            #expect(present(dir, ["mine1", "mine2", "x1", "x2", "mine3"]) == ["mine2", "x1", "mine3"])

            // x1 is the user's now: an unsigned push over the limit finds nothing it may remove.
            try await placedEarlier("mine3", in: dir, days: 0.2)
            let again = try await ListenerUnderTest(dir: dir, arguments: limit)
            #expect(await again.post(payload(["y1"], server), wait: true).status == 200)
            _ = try await again.stop()
            #expect(present(dir, ["mine2", "x1", "mine3", "y1"]) == ["mine2", "x1", "mine3", "y1"])
        }
    }

    /// A key the user's own run named keeps its URL against a push anyone could send: the
    /// eighth attacker trial's UDP push of the key of the user's cut download, naming its own
    /// server, had vodapp drop the user's kept bytes and place the sender's file under the
    /// user's title. The user's own next run may change the URL.
    @Test func anUnsignedPushCannotGiveAKeyTheUserNamedAnotherURL() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            // A 404: failed for good at once, whatever the machine's load (a 503 is retried until
            // the budget, and ends failed or timedOut by how fast the retries went).
            let mine = PayloadBuilder.json([(key: "private", title: "Private", url: server.url("/status/404"))])
            let first = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: mine)
            #expect(first.item("private")?["status"] as? String == "failed", "\(first.stdout)")

            let listener = try await ListenerUnderTest(dir: dir)
            let theirs = PayloadBuilder.json([(key: "private", title: "Private", url: server.url("/bytes/5000.mp4?theirs"))])
            let answer = await listener.post(theirs, wait: true)
            _ = try await listener.stop()
            let item = (answer.json?["items"] as? [[String: Any]])?.first
            #expect(item?["status"] as? String == "failed", "\(String(describing: answer.json))")
            #expect(item?["final"] as? Bool == true)
            #expect(item?["error"] as? String == "not fetched: a payload file, a poll or a signed push named this key with another URL, "
                    + "which an unauthenticated push may not change")
            #expect(!server.requests.contains { $0.target.contains("theirs") })
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty)

            // The user's own run may.
            let moved = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"],
                                             stdin: PayloadBuilder.json([(key: "private", title: "Private", url: server.url("/bytes/4000.mp4?moved"))]))
            #expect(moved.exitCode == 0, "\(moved.stdout)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "private"), count: 4000))
        }
    }

    /// A file an unsigned push placed under a key the user's own run names later, with another
    /// URL, is not the user's item: it is replaced by the file of the URL the user named (the
    /// tenth attacker trial had a UDP push plant its bytes under the key of the user's next
    /// `vodapp get`, reported "already present" with the sender's title on the user's screen).
    @Test func anUnsignedPushCannotPlantTheFileOfAKeyTheUserNamesLater() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: dir)
            let theirs = PayloadBuilder.json([(key: "later", title: "Evil", url: server.url("/bytes/7777.mp4?theirs"))])
            #expect(await listener.post(theirs, wait: true).status == 200)
            _ = try await listener.stop()
            #expect(ScratchDirectory.visibleMedia(dir) == ["Evil [later].mp4"])

            let mine = PayloadBuilder.json([(key: "later", title: "Real", url: server.url("/bytes/5555.mp4?mine"))])
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: mine)
            #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
            #expect(run.item("later")?["status"] as? String == "downloaded", "\(run.stdout)")
            #expect(ScratchDirectory.visibleMedia(dir) == ["Real [later].mp4"])
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "later"), count: 5555))
            #expect(run.stderr.contains("replaced the file of later: an unauthenticated push placed it from another URL than the one named now"),
                    "\(run.stderr)")
            let playlist = try String(contentsOfFile: dir + "/playlist.m3u8", encoding: .utf8)
            #expect(playlist.contains("Real [later].mp4") && !playlist.contains("Evil"), "\(playlist)")

            // The same URL again is simply present.
            let again = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: mine)
            #expect(again.item("later")?["status"] as? String == "alreadyPresent", "\(again.stdout)")
        }
    }
}
