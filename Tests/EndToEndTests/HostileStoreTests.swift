import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// Whoever can write DIR can make `DIR/.vodapp/state.sqlite` what they like: rows that hold
/// escape sequences, views and triggers that SQLite runs on vodapp's queries, and FIFOs or links
/// beside it. `status` shows nothing a terminal would obey, no command runs what vodapp did not
/// make, and what is planted beside the store is replaced when nobody uses it.
@Suite struct HostileStoreTests {
    /// Long enough for a run that does its work; far shorter than one that spins.
    private static let killedAfter: Duration = .seconds(20)

    /// `vodapp arguments…`, killed after `killedAfter`: today's code spun for ever on some of
    /// these stores. Temporary files (SQLite's sorts) go to `scratch`.
    private func vodapp(_ arguments: [String], stdin: Data? = nil, scratch: ScratchDirectory) async throws -> ToolRun {
        try await runTool(VODAppRunner.executable, arguments, stdin: stdin,
                          environment: VODAppRunner.environment(extra: ["TMPDIR": scratch.path]), timeout: Self.killedAfter)
    }

    private func payload(_ server: SampleServer, _ key: String, bytes: Int = 3000) -> Data {
        PayloadBuilder.json([(key: key, title: "Item \(key)", url: server.url("/bytes/\(bytes).mp4"))])
    }

    /// A delivery that makes the store, with the item `first` in it.
    private func prepare(_ dir: String, _ server: SampleServer, scratch: ScratchDirectory) async throws {
        let first = try await vodapp(["-", "--dir", dir, "--no-notify"], stdin: payload(server, "first", bytes: 100), scratch: scratch)
        try #require(first.exitCode == 0, "\(first.stderr)")
    }

    private func sqlite(_ dir: String, _ sql: String) async throws {
        let run = try await runTool("sqlite3", [dir + "/.vodapp/state.sqlite", sql])
        try #require(run.exitCode == 0, "\(sql): \(run.stderr)")
    }

    private func count(_ dir: String, _ table: String) async throws -> String {
        try await runTool("sqlite3", [dir + "/.vodapp/state.sqlite", "SELECT count(*) FROM \(table)"]).stdout
    }

    /// Bytes a terminal obeys: ESC, the C1 CSI (U+009B), and the right-to-left override.
    private func obeyed(_ text: String) -> [String] {
        [("ESC", "\u{1B}"), ("CSI", "\u{9B}"), ("RLO", "\u{202E}"), ("BEL", "\u{07}")].compactMap { text.contains($0.1) ? $0.0 : nil }
    }

    @Test func statusShowsNothingFromTheStoreThatATerminalWouldObey() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in try await prepare(dir, server, scratch: scratch) }
        // A file in DIR whose name holds an escape, which a fetched record names.
        let shown = "shown\u{1B}[7m.mp4"
        #expect(FileManager.default.createFile(atPath: dir + "/" + shown, contents: Data("x".utf8)))
        let esc = "char(27)"
        try await sqlite(dir, """
            INSERT INTO item (key, title, url, state, path, bytes, error, attempts, updatedAt, final) VALUES
              ('failed' || \(esc) || '[31m', \(esc) || ']0;owned' || char(7), 'http://x/' || \(esc), 'failed', NULL, NULL,
               'boom' || \(esc) || '[2J' || char(155) || '31m', 1, '2026-01-01 00:00:00.000', 1),
              ('gone' || \(esc) || '[5m', NULL, 'http://x/', 'removed', '/elsewhere/gone.mp4', 1, 'removed by ' || char(8238) || 'evil',
               0, '2026-01-01 00:00:00.000', 0),
              ('there', 'There', 'http://x/', 'fetched', '/old/shown' || \(esc) || '[7m.mp4', 1, NULL, 0, '2026-01-01 00:00:00.000', 0);
            INSERT INTO delivery (startedAt, source, origin, result, items, downloaded, failed, elapsedSeconds, note) VALUES
              ('2026-01-01 00:00:00.000', 'udp' || \(esc) || '[1m', 'peer' || char(155) || '2J', 'newData' || \(esc) || '[0m', 1, 0, 1, 0.1,
               'note' || \(esc) || 'P');
            """)
        let human = try await vodapp(["status", "--dir", dir], scratch: scratch)
        #expect(human.exitCode == 0, "\(human.stderr)")
        #expect(obeyed(human.stdout).isEmpty, "\(obeyed(human.stdout)): \(human.stdout.debugDescription)")
        // Each string is there, made safe, not dropped.
        for shownSafely in ["?]0;owned?", "boom?[2J?31m", "gone?[5m", "removed by ?evil", "shown?[7m.mp4", "udp?[1m", "peer?2J", "newData?[0m", "note?P"] {
            #expect(human.stdout.contains(shownSafely), "\(shownSafely): \(human.stdout.debugDescription)")
        }

        let json = try await vodapp(["status", "--dir", dir, "--json"], scratch: scratch)
        #expect(json.exitCode == 0, "\(json.stderr)")
        #expect(obeyed(json.stdout).isEmpty, "\(obeyed(json.stdout)): \(json.stdout.debugDescription)")
        // Still JSON, and the same strings: escapes in JSON are the characters themselves.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        let failed = try #require(items.first { ($0["key"] as? String) == "failed\u{1B}[31m" })
        #expect(failed["title"] as? String == "\u{1B}]0;owned\u{07}")
        #expect(failed["error"] as? String == "boom\u{1B}[2J\u{9B}31m")
        let deliveries = try #require(object["deliveries"] as? [[String: Any]])
        #expect(deliveries.first?["origin"] as? String == "peer\u{9B}2J")
        #expect(items.contains { ($0["error"] as? String) == "removed by \u{202E}evil" })
    }

    /// A view where vodapp's table of items was, recursive and never ending: SQLite would sort
    /// its rows into a temporary file for ever. Every command refuses the store at once, with
    /// one line that says which file and what to do; a delivery still places its files.
    @Test func aStoreWithARecursiveViewIsRefusedAtOnceByEveryCommand() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            try await prepare(dir, server, scratch: scratch)
            try await sqlite(dir, """
                DROP TABLE item;
                CREATE VIEW item AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
                  SELECT 'k' || n AS key, NULL AS title, 'http://x/' AS url, 'failed' AS state FROM r;
                """)
            let refusal = "\(dir)/.vodapp/state.sqlite holds what vodapp did not make (view 'item'); move .vodapp/state.sqlite aside to start afresh"
            for arguments in [["status", "--dir", dir], ["status", "--dir", dir, "--json"], ["forget", "--dir", dir, "first"]] {
                let run = try await vodapp(arguments, scratch: scratch)
                // Refused before any query: far sooner than `killedAfter`, where today's code spun.
                #expect(run.exited && run.wallSeconds < TimeBound.seconds(10), "\(arguments): \(run.wallSeconds) s")
                #expect(run.exitCode == 66, "\(arguments): \(run.stderr)")
                #expect(run.stderr == "vodapp: cannot read the state of \(dir): \(refusal)\n", "\(arguments)")
                #expect(run.stdout.isEmpty)
            }
            let handled = try await vodapp(["-", "--dir", dir, "--json", "--no-notify", "--budget", "15"], stdin: payload(server, "next"), scratch: scratch)
            #expect(handled.exited && handled.wallSeconds < TimeBound.seconds(15.5), "\(handled.wallSeconds) s")
            #expect(handled.exitCode == 0, "\(handled.stderr)")
            #expect(handled.stderr.contains("the state store of \(dir) cannot be used, so nothing is recorded: \(refusal)"), "\(handled.stderr)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "next"), count: 3000))

            let polled = try await vodapp(["poll", server.url("/payload.json"), "--dir", dir, "--json", "--no-notify", "--budget", "15"], scratch: scratch)
            #expect(polled.exited && polled.wallSeconds < TimeBound.seconds(15.5), "\(polled.wallSeconds) s")
            #expect(polled.exitCode == 0, "\(polled.stderr)")
            #expect(polled.stderr.contains(refusal), "\(polled.stderr)")
        }
    }

    /// A trigger on vodapp's log and another application's table: refused, named, and the
    /// trigger never runs. Names with escapes reach stderr harmless.
    @Test func aStoreWithATriggerOrAnotherTableIsRefusedAndNothingRuns() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            try await prepare(dir, server, scratch: scratch)
            try await sqlite(dir, """
                CREATE TRIGGER "spy\u{1B}[31m" AFTER INSERT ON delivery BEGIN DELETE FROM item; END;
                CREATE TABLE notes (text);
                """)
            let status = try await vodapp(["status", "--dir", dir], scratch: scratch)
            #expect(status.exitCode == 66)
            #expect(status.stderr.split(separator: "\n").count == 1 && status.stderr.hasSuffix("\n"), "\(status.stderr)")
            #expect(status.stderr.contains("\(dir)/.vodapp/state.sqlite holds what vodapp did not make (")
                    && status.stderr.contains("trigger 'spy?[31m'") && status.stderr.contains("table 'notes'")
                    && status.stderr.contains("move .vodapp/state.sqlite aside"), "\(status.stderr)")
            #expect(obeyed(status.stderr).isEmpty)

            let handled = try await vodapp(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload(server, "next"), scratch: scratch)
            #expect(handled.exitCode == 0, "\(handled.stderr)")
            #expect(handled.stderr.contains("the state store of \(dir) cannot be used, so nothing is recorded"), "\(handled.stderr)")
            #expect(obeyed(handled.stderr).isEmpty, "\(handled.stderr.debugDescription)")
            #expect(try await count(dir, "item") == "1\n", "the trigger ran")
        }
    }

    /// What someone planted beside the store, at each of SQLite's side files.
    enum Planted: String, CaseIterable, CustomTestStringConvertible {
        case fifo, symbolicLink, hardLink
        var testDescription: String { rawValue }
    }

    /// Plants `kind` at `path`; a link names `outside`.
    private func plant(_ kind: Planted, at path: String, outside: String) throws {
        unlink(path)
        switch kind {
        case .fifo: #expect(mkfifo(path, 0o644) == 0)
        case .symbolicLink: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside)
        case .hardLink: #expect(link(outside, path) == 0)
        }
    }

    /// A FIFO or a link at `-wal`, `-shm` or `-journal`, with nobody using the store, is
    /// replaced as vodapp's other work files are: no warning, the deliveries are recorded (the
    /// records of a `-wal` someone replaced are gone with it), and the file a link named is
    /// unchanged. `status`, which changes nothing, says what is there and who replaces it.
    @Test(arguments: ["-wal", "-shm", "-journal"], Planted.allCases)
    func aThingPlantedBesideAnUnusedStoreIsReplaced(_ suffix: String, _ kind: Planted) async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let outside = scratch.child("theirs")
        let theirs = Data("theirs".utf8)
        try theirs.write(to: URL(fileURLWithPath: outside))
        try await withSampleServer { server in
            try await prepare(dir, server, scratch: scratch)
            let side = dir + "/.vodapp/state.sqlite" + suffix
            try plant(kind, at: side, outside: outside)

            let status = try await vodapp(["status", "--dir", dir, "--json"], scratch: scratch)
            #expect(status.exitCode == 66, "\(status.stderr)")
            #expect(status.stderr.hasPrefix("vodapp: cannot read the state of \(dir): \(side) ")
                    && status.stderr.hasSuffix(": status changes nothing, and the next delivery replaces it once no process uses the store\n"),
                    "\(status.stderr)")

            for key in ["second", "third"] {
                let run = try await vodapp(["-", "--dir", dir, "--json", "--no-notify", "--budget", "15"], stdin: payload(server, key), scratch: scratch)
                #expect(run.exitCode == 0, "\(run.stderr)")
                #expect(run.wallSeconds < TimeBound.seconds(15.5))
                #expect(!run.stderr.contains("warning"), "\(key): \(run.stderr)")
            }
            let after = try await vodapp(["status", "--dir", dir, "--json"], scratch: scratch)
            #expect(after.exitCode == 0, "\(after.stderr)")
            for key in (suffix == "-wal" ? [] : ["first"]) + ["second", "third"] {
                #expect(after.stdout.contains("\"key\":\"\(key)\""), "\(key): \(after.stdout) \(after.stderr)")
            }
            #expect(FileManager.default.contents(atPath: outside) == theirs)
            var info = stat()
            if lstat(side, &info) == 0 {
                #expect((info.st_mode & S_IFMT) == S_IFREG && info.st_nlink == 1, "\(side) is still not SQLite's")
            }
        }
    }

    /// While another process has the store open, a FIFO beside it is not removed: that process
    /// may be using the real file under the name. The store is refused with a warning, as
    /// before, and the FIFO is replaced by the first delivery after the other process is done.
    @Test func aFIFOBesideAStoreInUseStaysUntilNobodyUsesIt() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            try await prepare(dir, server, scratch: scratch)
            let store = dir + "/.vodapp/state.sqlite"
            let marker = scratch.child("reading")
            // A reader in WAL mode, as another vodapp is: it holds the store open.
            let holder = try await RunningProcess("/usr/bin/python3", ["-c", """
                import sqlite3, sys, time
                d = sqlite3.connect(sys.argv[1])
                d.execute('SELECT count(*) FROM item').fetchall()
                open(sys.argv[2], 'w').close()
                time.sleep(600)
                """, store, marker], environment: ProcessInfo.processInfo.environment)
            defer { holder.signal(SIGKILL) }
            try await holder.wait(for: "the reader") { FileManager.default.fileExists(atPath: marker) || !holder.isRunning }
            try plant(.fifo, at: store + "-journal", outside: "")

            let refused = try await vodapp(["-", "--dir", dir, "--json", "--no-notify", "--budget", "15"], stdin: payload(server, "second"), scratch: scratch)
            #expect(refused.exitCode == 0, "\(refused.stderr)")
            #expect(refused.stderr.contains("the state store of \(dir) cannot be used, so nothing is recorded: \(store)-journal is a FIFO, not a regular file, and the store is in use, so it is not replaced now"),
                    "\(refused.stderr)")
            var info = stat()
            #expect(lstat(store + "-journal", &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
            let status = try await vodapp(["status", "--dir", dir], scratch: scratch)
            #expect(status.exitCode == 66)
            #expect(status.stderr.contains("\(store)-journal is a FIFO, not a regular file: status changes nothing"), "\(status.stderr)")

            holder.signal(SIGKILL)
            _ = try await holder.exitStatus()
            let replaced = try await vodapp(["-", "--dir", dir, "--json", "--no-notify", "--budget", "15"], stdin: payload(server, "third"), scratch: scratch)
            #expect(replaced.exitCode == 0, "\(replaced.stderr)")
            #expect(!replaced.stderr.contains("warning"), "\(replaced.stderr)")
            #expect(lstat(store + "-journal", &info) != 0 || (info.st_mode & S_IFMT) == S_IFREG)
        }
    }
}
