import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// What a delivery needs of the machine stays bounded whatever the playlist: descriptors under a
/// low `ulimit -n`, and time when another process holds the state store.
@Suite struct ResourceLimitTests {
    let runner = VODAppRunner()

    /// `vodapp ARGUMENTS` under `prlimit --nofile=LIMIT:LIMIT`, as a shell's `ulimit -n LIMIT`
    /// would start it.
    private func runLimited(_ limit: Int, _ arguments: [String], stdin: Data? = nil) async throws -> VODAppRunner.Run {
        let run = try await runTool("prlimit", ["--nofile=\(limit):\(limit)", "--", VODAppRunner.executable] + arguments,
                                    stdin: stdin, environment: VODAppRunner.environment(), timeout: .seconds(900))
        return VODAppRunner.Run(exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr, wallSeconds: run.wallSeconds)
    }

    @Test func twoThousandNewItemsFitUnderAFileLimitOf256() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let items = (0..<2000).map { (key: "k\($0)", title: "Item \($0)", url: server.url("/bytes/\(1000 + $0).mp4")) }
            let payload = scratch.child("payload.json")
            try PayloadBuilder.json(items).write(to: URL(fileURLWithPath: payload))
            // What is measured is descriptors, not time: a budget no loaded machine runs out of.
            let run = try await runLimited(256, [payload, "--dir", dir, "--json", "--no-notify", "--budget", "600"])
            #expect(run.exitCode == 0, "\(run.stderr.suffix(2000))")
            #expect(run.items.count == 2000)
            #expect(run.items.allSatisfy { $0["status"] as? String == "downloaded" },
                    "\(run.items.filter { $0["status"] as? String != "downloaded" }.prefix(3))")
            // One lock descriptor for the delivery, not one per item: no warning, no lowered
            // concurrency at 256.
            #expect(!run.stderr.contains("open files"), "\(run.stderr)")
            for index in stride(from: 0, to: 2000, by: 97) {
                #expect(holdsSampleBytes(ScratchDirectory.media(dir, "k\(index)"), count: Int64(1000 + index)))
            }
            #expect(ScratchDirectory.visibleMedia(dir).count == 2000)
        }
    }

    @Test func aLowFileLimitSlowsADeliveryDownInsteadOfFailingIt() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let items = (0..<60).map { (key: "k\($0)", title: "Item \($0)", url: server.url("/bytes/\(5000 + $0).mp4")) }
            let run = try await runLimited(40, ["-", "--dir", dir, "--json", "--no-notify"],
                                           stdin: PayloadBuilder.json(items))
            #expect(run.exitCode == 0, "\(run.stdout.prefix(2000)) \(run.stderr)")
            #expect(run.items.allSatisfy { $0["status"] as? String == "downloaded" })
            #expect(run.stderr.contains("the limit of 40 open files leaves room for 5 transfer(s) at once, not 16; raise it with ulimit -n"),
                    "\(run.stderr)")
        }
    }

    @Test func aLockedStoreCostsAWarningNotTheBudget() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            // A first delivery makes the store.
            let first = try await runner.run(["-", "--dir", dir, "--no-notify"],
                                             stdin: PayloadBuilder.json([(key: "a", title: "A", url: server.url("/bytes/1000.mp4"))]))
            #expect(first.exitCode == 0)
            // Another process takes the store and keeps it: no reader or writer gets in.
            let holder = try await RunningProcess("/usr/bin/python3", ["-c", """
                import sqlite3, sys, time
                db = sqlite3.connect(sys.argv[1], isolation_level=None)
                db.execute("PRAGMA locking_mode=EXCLUSIVE")
                db.execute("BEGIN EXCLUSIVE")
                db.execute("UPDATE item SET title = title")
                print("locked", flush=True)
                time.sleep(120)
                """, dir + "/.vodapp/state.sqlite"], environment: ProcessInfo.processInfo.environment)
            defer { holder.signal(SIGTERM) }
            try await holder.wait(for: "the store to be locked") { holder.stdout.contains("locked") }

            // A store that held the delivery for its whole budget would leave the item unfetched;
            // ten seconds, of which the store may take a quarter, leave a loaded machine room.
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--budget", "10"],
                                           stdin: PayloadBuilder.json([(key: "b", title: "B", url: server.url("/bytes/2000.mp4"))]))
            #expect(run.exitCode == 0, "\(run.stderr)")
            #expect(run.item("b")?["status"] as? String == "downloaded")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "b"), count: 2000))
            // The contract's bound for every run: the budget and half a second.
            #expect(run.wallSeconds < TimeBound.seconds(10.5), "took \(run.wallSeconds) s")
            #expect(run.stderr.contains("state store") && run.stderr.contains("locked"), "\(run.stderr)")
        }
    }
}
