import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// The disk and process rows of the fault matrix (docs/RELIABILITY.md) that other suites do not
/// already cover: a DIR nobody may write, a DIR removed mid-run, a user's file under an item's
/// name, and two signals in a row.
// Serialized: its signal tests (one through GNU timeout, which signals a process group) each
// watch a process end, and one of them once did not see its process end beside the other.
@Suite(.serialized) struct DiskAndProcessFaultTests {
    let runner = VODAppRunner()

    @Test(.enabled("mounting a tmpfs is not allowed here, so a read-only DIR cannot be staged") { await TmpfsMount.isAllowed })
    func aReadOnlyDirIsAOneLineErrorAndExit73() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("read-only")
        try await withTmpfsMount(at: dir, size: "1m", readOnly: true) { _ in
            try await withSampleServer { server in
                let payload = PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/1000.mp4"))])
                let run = try await runner.run(["-", "--dir", dir, "--no-notify"], stdin: payload)
                #expect(run.exitCode == 73)
                #expect(run.stderr == "vodapp: cannot use \(dir) for media: \(dir)/.vodapp: Read-only file system\n", "\(run.stderr)")
                #expect(server.requests.isEmpty)
            }
        }
    }

    @Test func aWorkAreaThatIsASymbolicLinkIsRefused() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let elsewhere = scratch.child("elsewhere")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/.vodapp", withDestinationPath: elsewhere)
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/1000.mp4"))])
            let run = try await runner.run(["-", "--dir", dir, "--no-notify"], stdin: payload)
            #expect(run.exitCode == 73)
            #expect(run.stderr == "vodapp: cannot use \(dir) for media: \(dir)/.vodapp is a symbolic link; vodapp's work area must be a directory inside DIR\n", "\(run.stderr)")
            #expect(ScratchDirectory.allEntries(elsewhere).isEmpty)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aDirRemovedMidRunFailsItsItemsWithoutRecreatingIt() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([
                (key: "slow", title: "Slow", url: server.url("/bytes/3000000.mp4?rate=500000")),
            ])
            async let run = runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
            try await waitUntil("200 kB on the wire") { server.requests.first?.bodyBytesSent ?? 0 > 200_000 }
            try FileManager.default.removeItem(atPath: dir)
            let result = try await run
            #expect(result.exitCode == 75, "\(result.stderr)")
            #expect(result.item("slow")?["status"] as? String == "failed")
            #expect((result.item("slow")?["error"] as? String)?.isEmpty == false)
            // Nothing was written anywhere else, and DIR was not quietly made again.
            #expect(!FileManager.default.fileExists(atPath: dir))
            #expect(ScratchDirectory.allEntries(scratch.path).isEmpty)
        }
    }

    @Test func aUsersFileUnderAnItemsNameIsNeverOverwritten() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let mine = Data("my own video\n".utf8)
            // One there before the run, one that appears while the item is on its way, each under
            // the name vodapp would give the item. The item takes 5 s, so that a test process the
            // rest of the suite starves for a few seconds still acts while it is on its way.
            _ = FileManager.default.createFile(atPath: scratch.child("Before [before].mp4"), contents: mine)
            let payload = PayloadBuilder.json([
                (key: "before", title: "Before", url: server.url("/bytes/1000.mp4")),
                (key: "during", title: "During", url: server.url("/bytes/1000000.mp4?rate=200000")),
            ])
            async let run = runner.run(["-", "--dir", scratch.path, "--json", "--no-notify"], stdin: payload)
            try await waitUntil("100 kB on the wire") { server.requests.first?.bodyBytesSent ?? 0 > 100_000 }
            _ = FileManager.default.createFile(atPath: scratch.child("During [during].mp4"), contents: mine)
            let result = try await run
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.item("before")?["status"] as? String == "alreadyPresent")
            #expect(result.item("during")?["status"] as? String == "alreadyPresent")
            #expect(FileManager.default.contents(atPath: ScratchDirectory.media(scratch.path, "before")) == mine)
            #expect(FileManager.default.contents(atPath: ScratchDirectory.media(scratch.path, "during")) == mine)
            #expect(server.requests.map(\.target) == ["/bytes/1000000.mp4?rate=200000"])
        }
    }

    /// exFAT (USB sticks, SD cards) refuses `link(2)`: files are placed with a rename that cannot
    /// replace, and a file a person put there during the run is still never overwritten.
    @Test(.enabled("exFAT cannot be mounted here (root, a loop device and /dev/fuse are needed)") { await ExfatMount.isAllowed })
    func aDirOnExFATGetsItsFilesAndKeepsAPersonsFile() async throws {
        try await withExfatMount { mount in
            let dir = mount.path + "/Videos"
            try await withSampleServer { server in
                let mine = Data("my own video\n".utf8)
                let payload = PayloadBuilder.json([
                    (key: "clip", title: "Clip", url: server.url("/media/tulips.mp4")),
                    (key: "during", title: "During", url: server.url("/bytes/1000000.mp4?rate=200000")),
                ])
                async let run = runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
                try await waitUntil("100 kB on the wire") { server.requests.contains { $0.bodyBytesSent > 100_000 } }
                _ = FileManager.default.createFile(atPath: dir + "/During [during].mp4", contents: mine)
                let first = try await run
                #expect(first.exitCode == 0, "\(first.stdout) \(first.stderr)")
                #expect(first.item("clip")?["status"] as? String == "downloaded")
                #expect(first.item("during")?["status"] as? String == "alreadyPresent")
                #expect(FileManager.default.contents(atPath: ScratchDirectory.media(dir, "clip")).map([UInt8].init) == SampleMedia.bytes(named: "tulips.mp4"))
                #expect(FileManager.default.contents(atPath: ScratchDirectory.media(dir, "during")) == mine)

                let again = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
                #expect(again.exitCode == 0)
                #expect(again.items.allSatisfy { $0["status"] as? String == "alreadyPresent" }, "\(again.stdout)")
                #expect(server.requests.count == 2, "\(server.requests.map(\.target))")
            }
        }
    }

    /// Keys are case-sensitive; exFAT is not. `abc` and `ABC` in one payload wrote and deleted
    /// one partial file (exfat-fuse crashed on it), and delivered apart the second was reported
    /// present with the first one's video. Now their partials never share a name, and the one
    /// whose name is taken by the other fails, saying why, every time.
    @Test(.enabled("exFAT cannot be mounted here (root, a loop device and /dev/fuse are needed)") { await ExfatMount.isAllowed })
    func keysDifferingOnlyInCaseOnExFATNeverShareAFile() async throws {
        try await withExfatMount { mount in
            let dir = mount.path + "/Videos"
            try await withSampleServer { server in
                let payload = PayloadBuilder.json([
                    // The small one arrives first and gets the name.
                    (key: "abc", title: "Same", url: server.url("/bytes/300000.mp4")),
                    (key: "ABC", title: "Same", url: server.url("/bytes/1000000.mp4?rate=1000000")),
                ])
                for run in 1...2 {
                    let result = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
                    // Delivering again cannot help: the failure is final, exit 69.
                    #expect(result.exitCode == 69, "\(result.stdout) \(result.stderr)")
                    #expect(result.item("ABC")?["final"] as? Bool == true)
                    // The file system is alive and holds one file, the first item's.
                    #expect(ScratchDirectory.visibleMedia(dir) == ["Same [abc].mp4"])
                    #expect(holdsSampleBytes(dir + "/Same [abc].mp4", count: 300_000))
                    #expect(result.item("abc")?["status"] as? String == (run == 1 ? "downloaded" : "alreadyPresent"))
                    #expect(result.item("ABC")?["status"] as? String == "failed")
                    let reason = result.item("ABC")?["error"] as? String ?? ""
                    #expect(reason.contains("the file system ignores case, and Same [abc].mp4 is there"), "\(reason)")
                }
            }
        }
    }

    @Test func aSecondSignalEndsTheRunAtOnce() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payloadPath = scratch.child("payload.json")
            // 20 s at this rate: the signals land mid-transfer even when the suite starves this
            // test of the CPU for seconds.
            try PayloadBuilder.json([(key: "slow", title: "Slow", url: server.url("/bytes/5000000.mp4?rate=250000"))])
                .write(to: URL(fileURLWithPath: payloadPath))
            let process = try await RunningProcess(VODAppRunner.executable, [payloadPath, "--dir", dir, "--json", "--no-notify"],
                                                   environment: VODAppRunner.environment())
            try await waitUntil("100 kB on the wire") { server.requests.first?.bodyBytesSent ?? 0 > 100_000 }
            let signalled = ContinuousClock.now
            process.signal(SIGTERM)
            process.signal(SIGINT)
            let status = try await process.exitStatus(timeout: .seconds(5))
            // The one-second promise itself is RedeliveryTests' to assert; here a second signal must
            // not make things worse (no hang, no crash, no default-action death), even on a
            // machine loaded by the rest of the suite.
            let ended = try #require(process.endedAt)
            #expect(signalled.duration(to: ended) < TimeBound.duration(.seconds(3)), "ended \(signalled.duration(to: ended)) after the signals")
            // The first signal asked for a stop; the second did not wait for it.
            #expect(status == 130 || status == 143, "exit \(status)")
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
        }
    }

    /// GNU `timeout` signals the run and then its whole process group: two SIGTERMs at once are
    /// one request to stop, so the capped run still prints its report and keeps what it fetched.
    /// Before, it took the second for "exit at once", and printed nothing (new-user trial).
    @Test func aRunCappedByTimeoutStillReports() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payloadPath = scratch.child("payload.json")
            try PayloadBuilder.json([(key: "slow", title: "Slow", url: server.url("/bytes/5000000.mp4?rate=250000"))])
                .write(to: URL(fileURLWithPath: payloadPath))
            // 6 s: the signals must find the run started, even when the suite starves it for seconds.
            let run = try await runTool("/usr/bin/timeout", ["--preserve-status", "6", VODAppRunner.executable, payloadPath,
                                                             "--dir", dir, "--json", "--no-notify"],
                                        environment: VODAppRunner.environment(), timeout: .seconds(60))
            #expect(run.exitCode == 143, "\(run.stdout) \(run.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
            let item = (report["items"] as? [[String: Any]])?.first
            #expect(item?["status"] as? String == "timedOut", "\(run.stdout)")
            #expect((item?["error"] as? String)?.contains("SIGTERM") == true, "\(run.stdout)")
        }
    }
}
