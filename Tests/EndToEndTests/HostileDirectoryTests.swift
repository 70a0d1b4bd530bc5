import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// Whoever can write DIR can plant a FIFO, a symbolic link or a hard link where vodapp expects a
/// file of its own. None of them may block a run past its budget or steer a write outside DIR.
@Suite struct HostileDirectoryTests {
    let runner = VODAppRunner()

    private func payload(_ server: SampleServer, _ key: String = "item", bytes: Int = 3000) -> Data {
        PayloadBuilder.json([(key: key, title: "Item", url: server.url("/bytes/\(bytes).mp4"))])
    }

    /// A delivery that makes the work area and the store, so a test can plant things in them.
    private func prepare(_ dir: String, _ server: SampleServer) async throws {
        let first = try await runner.run(["-", "--dir", dir, "--no-notify"], stdin: payload(server, "first", bytes: 100))
        #expect(first.exitCode == 0, "\(first.stderr)")
    }

    /// A scratch directory with DIR (`media`, not made yet) and, beside it, a folder of someone
    /// else's holding `file` ("theirs").
    private func victimOutside(_ file: String) throws -> (ScratchDirectory, dir: String, outside: String) {
        let scratch = try ScratchDirectory()
        let outside = scratch.child("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: outside + "/" + file, contents: Data("theirs".utf8))
        return (scratch, scratch.child("media"), outside)
    }

    private func plantFIFO(_ path: String) throws {
        unlink(path)
        guard mkfifo(path, 0o644) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// A FIFO where vodapp reads or writes a file of its own is removed and replaced (a partial
    /// body, the playlist's temporary): the run neither blocks nor fails. A FIFO at
    /// `playlist.m3u8` is the user's (nobody else can write in DIR): it stays, unread, and
    /// vodapp's playlist is `vodapp.m3u8`.
    @Test(arguments: ["playlist.m3u8", ".vodapp/partial/item.part", ".vodapp/partial/playlist.m3u8.new"])
    func aFIFOWhereAFileGoesNeitherBlocksNorFails(_ planted: String) async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            try await prepare(dir, server)
            try plantFIFO(dir + "/" + planted)
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--budget", "15"], stdin: payload(server))
            #expect(run.wallSeconds < TimeBound.seconds(15.5), "took \(run.wallSeconds) s")
            #expect(run.exitCode == 0, "\(run.stderr)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "item"), count: 3000))
            let users = planted == "playlist.m3u8"
            if users {
                var info = stat()
                #expect(lstat(dir + "/playlist.m3u8", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the user's FIFO was replaced")
            }
            let playlist = String(decoding: ScratchDirectory.contents(dir + (users ? "/vodapp.m3u8" : "/playlist.m3u8")) ?? [], as: UTF8.self)
            #expect(playlist.contains("Item [item].mp4"), "\(playlist)")
        }
    }

    /// A directory (with a file in it) or a link to a directory outside DIR, planted at a
    /// partial body's name: the name is vodapp's, what is there goes (a link, never its target),
    /// and the item arrives. It failed on every delivery before.
    @Test func aDirectoryOrALinkAtAPartialsNameIsReplaced() async throws {
        let (scratch, dir, outside) = try victimOutside("keep.txt")
        // The folder lives as long as the test: its deinit removes it.
        defer { withExtendedLifetime(scratch) {} }
        try await withSampleServer { server in
            try await prepare(dir, server)
            try FileManager.default.createDirectory(atPath: dir + "/.vodapp/partial/item.part/inside", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: dir + "/.vodapp/partial/item.part/inside/deeper.txt", contents: Data("deeper".utf8))
            try FileManager.default.createSymbolicLink(atPath: dir + "/.vodapp/partial/other.part", withDestinationPath: outside)
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--budget", "15"],
                                           stdin: PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/3000.mp4")),
                                                                       (key: "other", title: "Other", url: server.url("/bytes/4000.mp4"))]))
            #expect(run.exitCode == 0, "\(run.stdout)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "item"), count: 3000))
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "other"), count: 4000))
            #expect(ScratchDirectory.allEntries(outside) == ["keep.txt"])
            #expect(ScratchDirectory.contents(outside + "/keep.txt") == Array("theirs".utf8))
            // What the planted folder held in folders of its own (or a mount there, which a
            // recursive removal would empty) is moved out of the way, not removed.
            #expect(ScratchDirectory.allEntries(dir + "/.vodapp/partial").contains { $0.hasSuffix("/inside/deeper.txt") },
                    "\(ScratchDirectory.allEntries(dir + "/.vodapp/partial"))")
        }
    }

    /// A folder of elsewhere bind-mounted at a partial body's name, at the playlist's temporary
    /// name or at the folder of discarded segment folders (the same device, so nothing but the mount table tells it from a folder):
    /// nothing in it is removed, and the delivery goes on with what it can. (Emptied before: its
    /// files were taken for vodapp's own.)
    @Test(.enabled("mounting is not allowed here") { await TmpfsMount.isAllowed })
    func aMountAtANameOfVodappsIsNeverEmptied() async throws {
        let (scratch, dir, outside) = try victimOutside("one.txt")
        // The folder lives as long as the test: its deinit removes it.
        defer { withExtendedLifetime(scratch) {} }
        try await withSampleServer { server in
            try await prepare(dir, server)
            // `.discarded`: where given-up segment folders wait to be emptied (fifth attacker
            // trial: a mount there was emptied, its subfolders too).
            for name in ["item.part", "playlist.m3u8.new", ".discarded"] {
                try await withBindMount(outside, at: dir + "/.vodapp/partial/" + name) { _ in
                    let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--budget", "15"],
                                                   stdin: PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/3000.mp4?\(name)"))]))
                    #expect(run.exitCode != 0 || name != "item.part", "\(run.stdout)")
                    #expect(ScratchDirectory.contents(outside + "/one.txt") == Array("theirs".utf8), "\(name): \(run.stdout) \(run.stderr)")
                }
            }
        }
    }

    /// The same at an HLS item's folder of segments: a FIFO, or a link to a directory outside
    /// DIR, is replaced by a folder of vodapp's own, and the stream arrives.
    @Test func aFIFOOrALinkAtAnHLSItemsFolderIsReplaced() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 2, root: nginx.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        let master = try #require(ts.master)
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let outside = scratch.child("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try await withSampleServer { server in
            try await prepare(dir, server)
        }
        try plantFIFO(dir + "/.vodapp/partial/one.hls")
        try FileManager.default.createSymbolicLink(atPath: dir + "/.vodapp/partial/two.hls", withDestinationPath: outside)
        let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--budget", "10"],
                                       stdin: PayloadBuilder.json([(key: "one", title: "One", url: nginx.url(master)),
                                                                   (key: "two", title: "Two", url: nginx.url(master))]))
        #expect(run.exitCode == 0, "\(run.stdout)")
        for key in ["one", "two"] {
            let duration = await MediaFixtures.ffprobeDuration(ScratchDirectory.media(dir, key))
            #expect(duration.map { abs($0 - clip.duration) <= 0.5 } == true, "\(key): \(String(describing: duration))")
        }
        #expect(ScratchDirectory.allEntries(outside).isEmpty)
    }

    /// A FIFO at the lock file or the store cannot be replaced safely (another delivery may be
    /// using the real one): the lock file's refuses the run with a reason, the store's costs the
    /// record with a warning. Neither blocks.
    @Test func aFIFOAtTheLocksOrTheStoreIsRefusedAtOnce() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            try await prepare(dir, server)
            try plantFIFO(dir + "/.vodapp/locks")
            let locked = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--budget", "15"], stdin: payload(server))
            #expect(locked.wallSeconds < TimeBound.seconds(15.5))
            #expect(locked.exitCode == 73)
            #expect(locked.stderr == "vodapp: cannot use \(dir) for media: \(dir)/.vodapp/locks is a FIFO, not a regular file\n",
                    "\(locked.stderr)")
            #expect(ScratchDirectory.media(dir, "item").hasSuffix("no file for [item]"))

            unlink(dir + "/.vodapp/locks")
            try plantFIFO(dir + "/.vodapp/state.sqlite")
            let stored = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--budget", "15"], stdin: payload(server))
            #expect(stored.wallSeconds < TimeBound.seconds(15.5))
            #expect(stored.exitCode == 0, "\(stored.stderr)")
            #expect(stored.stderr.contains("the state store of \(dir) cannot be used, so nothing is recorded: \(dir)/.vodapp/state.sqlite is a FIFO, not a regular file"),
                    "\(stored.stderr)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "item"), count: 3000))
        }
    }

    /// A store that is a link to another application's database is never opened: that database
    /// gets no tables of vodapp's.
    @Test func aStoreLinkedToAnotherDatabaseIsNeverOpened() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let theirs = scratch.child("their.sqlite")
        let made = try await runTool("/usr/bin/python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE notes (text)'); c.commit()", theirs])
        #expect(made.exitCode == 0)
        let before = ScratchDirectory.contents(theirs)
        try await withSampleServer { server in
            try await prepare(dir, server)
            unlink(dir + "/.vodapp/state.sqlite")
            unlink(dir + "/.vodapp/state.sqlite-wal")
            unlink(dir + "/.vodapp/state.sqlite-shm")
            try FileManager.default.createSymbolicLink(atPath: dir + "/.vodapp/state.sqlite", withDestinationPath: theirs)
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload(server))
            #expect(run.exitCode == 0, "\(run.stderr)")
            #expect(run.stderr.contains("\(dir)/.vodapp/state.sqlite is a symbolic link, not a regular file"), "\(run.stderr)")
            #expect(ScratchDirectory.contents(theirs) == before)
            #expect(!FileManager.default.fileExists(atPath: theirs + "-wal"))
        }
    }

    /// A work area that is a link is refused on every path, even when every item is present and
    /// nothing is fetched: the store and the playlist's temporary would follow it.
    @Test func aLinkedWorkAreaIsRefusedWhenEveryItemIsPresent() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let elsewhere = scratch.child("elsewhere")
        try await withSampleServer { server in
            let first = try await runner.run(["-", "--dir", dir, "--no-notify"], stdin: payload(server))
            #expect(first.exitCode == 0)
            try FileManager.default.moveItem(atPath: dir + "/.vodapp", toPath: elsewhere)
            try FileManager.default.createSymbolicLink(atPath: dir + "/.vodapp", withDestinationPath: elsewhere)
            let before = ScratchDirectory.allEntries(elsewhere)
            let store = ScratchDirectory.contents(elsewhere + "/state.sqlite")
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload(server))
            #expect(run.exitCode == 73)
            #expect(run.stderr == "vodapp: cannot use \(dir) for media: \(dir)/.vodapp is a symbolic link; vodapp's work area must be a directory inside DIR\n",
                    "\(run.stderr)")
            #expect(ScratchDirectory.allEntries(elsewhere) == before)
            #expect(ScratchDirectory.contents(elsewhere + "/state.sqlite") == store)
        }
    }

    /// A hard link planted at a partial body, naming a file outside DIR, is discarded: the
    /// resume does not append to it, and the item is fetched whole.
    @Test func aHardLinkPlantedAtAPartialIsDiscardedNeverWrittenThrough() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let outside = scratch.child("outside.txt")
        let size = 2_000_000
        try await withSampleServer { server in
            // Cut by a signal once bytes have landed, not by a short budget: how far a loaded
            // machine gets in a budget is not what this test is about.
            let slow = scratch.child("slow.json")
            // 40 s at this rate: the signal comes long before it ends, however late a loaded
            // machine runs this test's wait; the default budget would cut it at 30 s as well.
            try PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/\(size).mp4?rate=50000"))])
                .write(to: URL(fileURLWithPath: slow))
            let cut = try await RunningProcess(VODAppRunner.executable, [slow, "--dir", dir, "--json", "--no-notify"],
                                               environment: VODAppRunner.environment())
            try await waitUntil("100 kB on the wire") { server.requests.first?.bodyBytesSent ?? 0 > 100_000 }
            cut.signal(SIGTERM)
            let status = try await cut.exitStatus()
            #expect(status == 143 || status == 75, "\(status): \(cut.stderr)")
            let partial = dir + "/.vodapp/partial/item.part"
            let keptBytes = ScratchDirectory.contents(partial)?.count ?? 0
            try #require(keptBytes > 0, "\(cut.stdout) \(cut.stderr)")
            // Somebody else's file, of the same size, now also named by the partial.
            let theirs = Data(repeating: UInt8(ascii: "x"), count: keptBytes)
            try theirs.write(to: URL(fileURLWithPath: outside))
            unlink(partial)
            #expect(link(outside, partial) == 0)

            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"],
                                           stdin: PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/\(size).mp4"))]))
            #expect(run.exitCode == 0, "\(run.stderr)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "item"), count: Int64(size)))
            #expect(FileManager.default.contents(atPath: outside) == theirs)
            #expect(server.requests.last?.header("range") == nil)
        }
    }
}
