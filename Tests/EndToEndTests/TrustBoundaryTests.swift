import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// Nothing outside DIR, and nothing in it that vodapp did not place, is ever removed or
/// overwritten, whatever a planted link, a forged store or another local user arranges: the
/// built `vodapp` on real folders, links, users and servers.
@Suite struct TrustBoundaryTests {
    let runner = VODAppRunner()

    /// A scratch directory with DIR (`media`, not made yet) and, beside it, a folder of someone
    /// else's holding two files.
    private func victimOutside() throws -> (ScratchDirectory, dir: String, outside: String) {
        let scratch = try ScratchDirectory()
        let outside = scratch.child("Documents")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        for name in ["letter.txt", "photo.jpg"] {
            _ = FileManager.default.createFile(atPath: outside + "/" + name, contents: Data("theirs: \(name)".utf8))
        }
        return (scratch, scratch.child("media"), outside)
    }

    private func outsideIsUntouched(_ outside: String) -> Bool {
        ScratchDirectory.allEntries(outside) == ["letter.txt", "photo.jpg"]
            && ["letter.txt", "photo.jpg"].allSatisfy { ScratchDirectory.contents(outside + "/" + $0) == Array("theirs: \($0)".utf8) }
    }

    /// Runs SQL on DIR's store with Python's sqlite3 (as another program, or another user, could).
    private func sql(_ dir: String, _ statement: String, _ parameters: [String] = []) async throws {
        let script = "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute(sys.argv[2], sys.argv[3:]); db.commit()"
        let run = try await runTool("python3", ["-c", script, dir + "/.vodapp/state.sqlite", statement] + parameters)
        #expect(run.exitCode == 0, "\(run.stderr)")
    }

    private static let longAgo = "2020-01-01 00:00:00.000"

    /// `date` as the store writes its times (UTC, milliseconds), for a record made to look older.
    private static func storeTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter.string(from: date)
    }

    /// A link planted at an HLS item's work folder, then a push of that item whose playlist fails
    /// for good (a live stream): the clean-up of the item's folder removes the link, never the
    /// files of the folder it names. (It emptied the link's target: another user's ~/Documents,
    /// through a shared DIR.)
    /// The work area is the running user's alone (0700), made so by every delivery, also when
    /// an earlier vodapp left it open: another user who could open `locks` held a lock that read
    /// as a delivery running since 1970 (retention removed nothing, blaming it), held every
    /// item's lock (nothing was fetched), or locked the store's shared memory (each delivery ran
    /// its whole budget): the tenth attacker trial.
    @Test(.enabled("needs root, to act as nobody") { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") })
    func anotherUserCannotReachTheWorkAreaToHoldItsLocks() async throws {
        let scratch = try ScratchDirectory()
        chmod(scratch.path, 0o755)
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "a", title: "A", url: server.url("/bytes/1000.mp4"))])
            let first = try await runner.run(["-", "--dir", dir, "--no-notify"], stdin: payload)
            #expect(first.exitCode == 0, "\(first.stderr)")
            func mode() -> mode_t {
                var info = stat()
                return stat(dir + "/.vodapp", &info) == 0 ? info.st_mode & 0o777 : 0
            }
            #expect(mode() == 0o700)
            // As an earlier vodapp left it: the next delivery closes it, even one that fetches nothing.
            #expect(chmod(dir + "/.vodapp", 0o755) == 0)
            let again = try await runner.run(["-", "--dir", dir, "--no-notify"], stdin: payload)
            #expect(again.exitCode == 0, "\(again.stderr)")
            #expect(mode() == 0o700)
            let script = "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, 2**62)"
            let lock = try await runTool("/usr/sbin/runuser", ["-u", "nobody", "--", "python3", "-c", script, dir + "/.vodapp/locks"])
            #expect(lock.exitCode != 0)
            #expect(lock.stderr.contains("Permission denied"), "\(lock.stderr)")
        }
    }

    @Test func aLinkAtAStreamsWorkFolderWhenTheStreamFailsForGoodRemovesNothingOutside() async throws {
        let (scratch, dir, outside) = try victimOutside()
        _ = scratch
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        // Live: no #EXT-X-ENDLIST.
        try "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nsegment0.ts\n#EXTINF:2.0,\nsegment1.ts\n"
            .write(toFile: nginx.root + "/live.m3u8", atomically: true, encoding: .utf8)
        try await withSampleServer { server in
            let first = try await runner.run(["-", "--dir", dir, "--no-notify"],
                                             stdin: PayloadBuilder.json([(key: "first", title: "First", url: server.url("/bytes/100.mp4"))]))
            #expect(first.exitCode == 0, "\(first.stderr)")
        }
        try FileManager.default.createSymbolicLink(atPath: dir + "/.vodapp/partial/show.hls", withDestinationPath: outside)
        let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--budget", "10"],
                                       stdin: PayloadBuilder.json([(key: "show", title: "Show", url: nginx.url("live.m3u8"))]))
        #expect(run.item("show")?["status"] as? String == "failed", "\(run.stdout)")
        #expect((run.item("show")?["error"] as? String)?.contains("live") == true, "\(run.stdout)")
        #expect(outsideIsUntouched(outside), "\(ScratchDirectory.allEntries(outside))")
    }

    /// `.vodapp` swapped for a link while an HLS item downloads, which anyone who may rename
    /// entries in DIR can do (its owner, when it is a shared sticky folder; its group, when it is
    /// group-writable): the link's `partial` names a folder of someone else's. Nothing in it is
    /// removed or written when the item is cut, and no segment lands there. (The attacker trial
    /// emptied `~/notes.hls` this way, and wrote segments into it: every open, rename and
    /// removal re-resolved the path through the new link.)
    @Test func aWorkAreaSwappedForALinkMidRunLeadsNothingOutsideDIR() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let home = scratch.child("home")
        let theirs = home + "/notes.hls"
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
        for name in ["important.txt", "draft.doc"] {
            _ = FileManager.default.createFile(atPath: theirs + "/" + name, contents: Data("theirs: \(name)".utf8))
        }
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        try await withSampleServer { server in
            // Twenty segments of 5 s each at this rate: the swap lands while they download.
            var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            for index in 0..<20 { playlist += "#EXTINF:1.0,\n\(server.url("/bytes/100000.ts?rate=20000&n=\(index)"))\n" }
            try (playlist + "#EXT-X-ENDLIST\n").write(toFile: nginx.root + "/notes.m3u8", atomically: true, encoding: .utf8)
            let payload = scratch.child("payload.json")
            try PayloadBuilder.json([(key: "notes", title: "Lecture", url: nginx.url("notes.m3u8"))]).write(to: URL(fileURLWithPath: payload))
            let run = try await RunningProcess(VODAppRunner.executable, [payload, "--dir", dir, "--json", "--no-notify"],
                                               environment: VODAppRunner.environment())
            try await waitUntil("segments on the wire") { server.requests.contains { $0.bodyBytesSent > 20_000 } }
            #expect(FileManager.default.fileExists(atPath: dir + "/.vodapp/partial/notes.hls"))

            let evil = scratch.child("evil")
            try FileManager.default.createDirectory(atPath: evil, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: evil + "/partial", withDestinationPath: home)
            #expect(rename(dir + "/.vodapp", dir + "/.vodapp-orig") == 0)
            try FileManager.default.createSymbolicLink(atPath: dir + "/.vodapp", withDestinationPath: evil)
            // The cut, before any segment is whole: the item's folder is cleaned of its leftovers.
            run.signal(SIGTERM)
            #expect(try await run.exitStatus() == 143, "\(run.stderr)")

            #expect(ScratchDirectory.allEntries(home) == ["notes.hls", "notes.hls/draft.doc", "notes.hls/important.txt"],
                    "\(ScratchDirectory.allEntries(home))")
            for name in ["important.txt", "draft.doc"] {
                #expect(ScratchDirectory.contents(theirs + "/" + name) == Array("theirs: \(name)".utf8))
            }
        }
    }

    /// A record of the store in the `partial` state whose key climbs out of the work area
    /// (`../../../x`, written by another program): retention builds no path from it, and the
    /// `x.part` and `x.hls/` it would name outside DIR stay.
    @Test func aForgedPartialRecordWithATraversingKeyRemovesNothingOutside() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        // DIR/.vodapp/partial/../../../x.part is the scratch directory's x.part.
        let body = scratch.child("x.part")
        let folder = scratch.child("x.hls")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: body))
        try Data("mine too".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        // Old enough for any retention to take, were they vodapp's.
        for path in [body, folder + "/notes.txt", folder] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -30 * 86_400)], ofItemAtPath: path)
        }
        try await withSampleServer { server in
            let first = try await runner.run(["-", "--dir", dir, "--no-notify"],
                                             stdin: PayloadBuilder.json([(key: "first", title: "First", url: server.url("/bytes/100.mp4"))]))
            #expect(first.exitCode == 0, "\(first.stderr)")
            try await sql(dir, "INSERT INTO item (key, title, url, state, updatedAt, attempts) VALUES (?, 'x', 'http://127.0.0.1/x.mp4', 'partial', ?, 0)",
                          ["../../../x", Self.longAgo])
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--max-total", "1", "--keep-days", "1"],
                                           stdin: PayloadBuilder.json([(key: "second", title: "Second", url: server.url("/bytes/200.mp4"))]))
            #expect(run.exitCode == 0, "\(run.stderr)")
            #expect(ScratchDirectory.contents(body) == Array("mine".utf8))
            #expect(ScratchDirectory.contents(folder + "/notes.txt") == Array("mine too".utf8))
            let status = try await runner.run(["status", "--dir", dir])
            #expect(status.exitCode == 0, "\(status.stderr)")
        }
    }

    /// A `.vodapp` the running user does not own, or that others may write, is refused with exit
    /// 73 and one line that names it and the fix; nothing of it is read, and nothing is removed
    /// for it. Here the user's own, made writable by all.
    @Test func aWorkAreaOthersMayWriteIsRefused() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "a", title: "A", url: server.url("/bytes/100.mp4"))])
            let first = try await runner.run(["-", "--dir", dir, "--no-notify"], stdin: payload)
            #expect(first.exitCode == 0, "\(first.stderr)")
            chmod(dir + "/.vodapp", 0o777)
            let file = ScratchDirectory.media(dir, "a")
            unlink(file)
            for arguments in [["-", "--dir", dir, "--no-notify"], ["status", "--dir", dir], ["forget", "--dir", dir, "a"]] {
                let run = try await runner.run(arguments, stdin: payload)
                #expect(run.exitCode == 73, "\(arguments): \(run.stderr)")
                #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
                #expect(run.stderr.contains("\(dir)/.vodapp is writable by its group and others (mode 777)")
                        && run.stderr.contains("chmod -R go-w \(dir)/.vodapp"), "\(run.stderr)")
            }
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty, "fetched into a refused DIR")
            chmod(dir + "/.vodapp", 0o755)
            let fixed = try await runner.run(["-", "--dir", dir, "--no-notify"], stdin: payload)
            #expect(fixed.exitCode == 0, "\(fixed.stderr)")

            // A work area without its `partial` folder, on a run that fetches nothing (its item is
            // there) but would apply retention: refused all the same.
            #expect(rmdir(dir + "/.vodapp/partial") == 0)
            chmod(dir + "/.vodapp", 0o777)
            let present = try await runner.run(["-", "--dir", dir, "--no-notify", "--keep-days", "1"], stdin: payload)
            #expect(present.exitCode == 73, "\(present.stderr)")
            #expect(present.stderr.contains("\(dir)/.vodapp is writable by its group and others"), "\(present.stderr)")
        }
    }

    /// The attack of a shared sticky DIR (mode 1777, as /tmp or a family's media folder): one user
    /// makes `.vodapp` first, open to all, with a forged record of the other's own `holiday.mp4`
    /// as if vodapp had placed it long ago (its inode and fingerprint read off the file); the
    /// victim's `--keep-days 1` run removed it. Now the victim's run refuses the work area (73),
    /// and the holiday stays.
    @Test(.enabled("needs root, to make and be two users") { UnixUser.canBeMade })
    func anotherUsersWorkAreaInASharedFolderIsRefusedAndRemovesNothing() async throws {
        let alice = try await UnixUser("vodapp-test-alice")
        let mallory = try await UnixUser("vodapp-test-mallory")
        let scratch = try ScratchDirectory()
        chmod(scratch.path, 0o755)
        let shared = scratch.child("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        chmod(shared, 0o1777)
        let holiday = shared + "/holiday.mp4"
        let made = try await alice.run("/usr/bin/python3", ["-c", "import sys, os; open(sys.argv[1], 'wb').write(os.urandom(5000))", holiday])
        #expect(made.exitCode == 0, "\(made.stderr)")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -10 * 86_400)], ofItemAtPath: holiday)
        let bytes = try #require(FileManager.default.contents(atPath: holiday))
        try await withSampleServer { server in
            let payloadFile = scratch.child("payload.json")
            try PayloadBuilder.json([(key: "news", title: "News", url: server.url("/bytes/100.mp4"))]).write(to: URL(fileURLWithPath: payloadFile))
            chmod(payloadFile, 0o644)
            let environment = VODAppRunner.environment()
            // Mallory's delivery makes the work area and the store; then the forged record, and
            // the work area opened to all.
            let planted = try await mallory.run(VODAppRunner.executable, [payloadFile, "--dir", shared, "--no-notify"], environment: environment)
            #expect(planted.exitCode == 0, "\(planted.stderr)")
            let forge = """
                import sqlite3, sys, os, hashlib, datetime
                path = sys.argv[2]; info = os.stat(path)
                digest = hashlib.sha256(open(path, 'rb').read()).hexdigest()
                when = datetime.datetime.fromtimestamp(info.st_mtime, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
                db = sqlite3.connect(sys.argv[1])
                db.execute("INSERT INTO item (key, title, url, state, path, bytes, updatedAt, attempts, fileID, fingerprint) "
                           "VALUES ('holiday', 'Holiday', 'http://127.0.0.1/holiday.mp4', 'fetched', ?, ?, ?, 0, ?, ?)",
                           (path, info.st_size, when, "%d:%d" % (info.st_dev, info.st_ino), digest))
                db.commit()
                """
            let forged = try await mallory.run("/usr/bin/python3", ["-c", forge, shared + "/.vodapp/state.sqlite", holiday])
            #expect(forged.exitCode == 0, "\(forged.stderr)")
            let opened = try await mallory.run("/bin/chmod", ["-R", "a+rwX", shared + "/.vodapp"])
            #expect(opened.exitCode == 0, "\(opened.stderr)")

            let run = try await alice.run(VODAppRunner.executable, [payloadFile, "--dir", shared, "--no-notify", "--keep-days", "1"],
                                          environment: environment)
            #expect(run.exitCode == 73, "\(run.stdout) \(run.stderr)")
            #expect(run.stderr == "vodapp: cannot use \(shared) for media: \(shared)/.vodapp belongs to user \(mallory.name) (uid \(mallory.uid)), "
                    + "not to you, \(alice.name) (uid \(alice.uid)): vodapp does not act on a work area another user could have written; "
                    + "if it is yours, 'sudo chown -R \(alice.name) \(shared)/.vodapp', otherwise use a DIR of your own (--dir)\n", "\(run.stderr)")
            #expect(FileManager.default.contents(atPath: holiday) == bytes, "the victim's holiday is gone")
        }
    }

    /// A listener given a DIR whose `.vodapp` is root's (made by a `sudo vodapp` once) says
    /// whose it is and how to fix it, as every other command does: it said only "Permission
    /// denied", from making `.vodapp/partial` before the owner was asked (new-user trial).
    @Test(.enabled("needs root, to make and be another user") { UnixUser.canBeMade })
    func aListenerOnAWorkAreaRootOwnsSaysWhoseItIs() async throws {
        let alice = try await UnixUser("vodapp-test-alice")
        let scratch = try ScratchDirectory()
        chmod(scratch.path, 0o755)
        let dir = scratch.child("media")
        try FileManager.default.createDirectory(atPath: dir + "/.vodapp", withIntermediateDirectories: true)
        chown(dir, alice.uid, gid_t.max)
        let run = try await alice.run(VODAppRunner.executable, ["listen", "--dir", dir, "--no-udp", "--http", "127.0.0.1:0", "--no-notify"],
                                      environment: VODAppRunner.environment())
        #expect(run.exitCode == 73, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("vodapp: cannot use \(dir) for media: \(dir)/.vodapp belongs to user root (uid 0), "
                                     + "not to you, \(alice.name) (uid \(alice.uid))"), "\(run.stderr)")
        #expect(run.stderr.contains("'sudo chown -R \(alice.name) \(dir)/.vodapp'"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/.vodapp/partial"))
    }

    /// A file a retention left set aside when it was killed (SIGKILL between its rename and its
    /// unlink) is back under its name at the start of the next run, whatever that run's options:
    /// it was hidden, read as removed by the user, not fetched and not listed until a run with
    /// retention flags. Both places: the work area's `removing` folder, and the hidden name in
    /// DIR an earlier vodapp used.
    @Test func aFileACrashedRetentionSetAsideIsBackAtTheNextRun() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "a", title: "A", url: server.url("/bytes/3000.mp4")),
                                               (key: "b", title: "B", url: server.url("/bytes/4000.mp4"))])
            let first = try await runner.run(["-", "--dir", dir, "--no-notify"], stdin: payload)
            #expect(first.exitCode == 0, "\(first.stderr)")
            let a = ScratchDirectory.media(dir, "a")
            let b = ScratchDirectory.media(dir, "b")
            // What a crash leaves.
            mkdir(dir + "/.vodapp/removing", 0o755)
            #expect(rename(a, dir + "/.vodapp/removing/" + (a as NSString).lastPathComponent) == 0)
            #expect(rename(b, dir + "/.vodapp-removing-" + (b as NSString).lastPathComponent) == 0)

            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
            #expect(run.exitCode == 0, "\(run.stderr)")
            for key in ["a", "b"] {
                #expect(run.item(key)?["status"] as? String == "alreadyPresent", "\(key): \(run.stdout)")
            }
            #expect(holdsSampleBytes(a, count: 3000))
            #expect(holdsSampleBytes(b, count: 4000))
            let playlist = String(decoding: ScratchDirectory.contents(dir + "/playlist.m3u8") ?? [], as: UTF8.self)
            #expect(playlist.contains("A [a].mp4") && playlist.contains("B [b].mp4"), "\(playlist)")
        }
    }

    /// Every name vodapp places can be removed by retention, whatever its length: a title that
    /// makes a 255-byte name (a prefix added to set it aside went past the limit, and a server
    /// could so defeat --max-total).
    @Test func aFileWithTheLongestNameCanBeRemovedByRetention() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            // A 200-byte title and a 100-character key: a 255-byte name.
            let key = String(repeating: "k", count: 100)
            let title = String(repeating: "Long title ", count: 40)
            let first = try await runner.run(["-", "--dir", dir, "--no-notify", "--json"],
                                             stdin: PayloadBuilder.json([(key: key, title: title, url: server.url("/bytes/3000.mp4"))]))
            #expect(first.exitCode == 0, "\(first.stderr)")
            let file = ScratchDirectory.media(dir, key)
            let name = (file as NSString).lastPathComponent
            #expect(name.utf8.count > 238, "\(name.utf8.count) bytes")
            // As if placed ten days ago: the file's time, and the record's.
            let placed = Date(timeIntervalSinceNow: -10 * 86_400)
            try FileManager.default.setAttributes([.modificationDate: placed], ofItemAtPath: file)
            try await sql(dir, "UPDATE item SET updatedAt = ? WHERE key = ?", [Self.storeTime(placed.addingTimeInterval(1)), key])

            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--keep-days", "1"],
                                           stdin: PayloadBuilder.json([(key: "next", title: "Next", url: server.url("/bytes/100.mp4"))]))
            #expect(run.exitCode == 0, "\(run.stderr)")
            let removed = (run.report?["removed"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
            #expect(removed == [key], "\(run.stdout) \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: file))
            #expect(ScratchDirectory.allEntries(dir + "/.vodapp/removing").isEmpty)
        }
    }

    /// Under umask 002, which pam_umask gives users with a private group (Ubuntu's default),
    /// every folder the user makes is group-writable, its group the user's alone: the way is
    /// still theirs. Such a `~/Videos` had every delivery refused (exit 73).
    @Test(.enabled("needs root, to make and be another user") { UnixUser.canBeMade })
    func aWayMadeUnderUmask002IsTheUsers() async throws {
        let alice = try await UnixUser("vodapp-test-alice")
        let scratch = try ScratchDirectory()
        chmod(scratch.path, 0o755)
        let home = scratch.child("alice")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let group = try #require(getpwnam(alice.name)).pointee.pw_gid
        #expect(chown(home, alice.uid, group) == 0)
        try await withSampleServer { server in
            let payloadFile = scratch.child("payload.json")
            try PayloadBuilder.json([(key: "news", title: "News", url: server.url("/bytes/100.mp4"))]).write(to: URL(fileURLWithPath: payloadFile))
            chmod(payloadFile, 0o644)
            let dir = home + "/Videos/VODApp"
            let run = try await alice.run("/bin/sh", ["-c", "umask 002 && mkdir \"$1\" && chmod 775 \"$2\" && shift 2 && exec \"$@\"", "sh",
                                                      home + "/Videos", home, VODAppRunner.executable, payloadFile, "--dir", dir, "--no-notify"],
                                          environment: VODAppRunner.environment())
            #expect(run.exitCode == 0, "\(run.stderr)")
            var info = stat()
            #expect(stat(home + "/Videos", &info) == 0 && info.st_mode & 0o777 == 0o775 && info.st_gid == group)
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "news"), count: 100))
        }
    }

    /// DIR named through a folder another user owns (a sticky `share` of theirs), which they
    /// turned into a link to the user's own library: the delivery is refused before anything is
    /// written or removed, saying why (exit 73). The second attacker trial's `--max-total` run
    /// removed four files of `~/Videos/VODApp`; the sixth's runs, swapped mid-run, overwrote a
    /// playlist in `~/Music` and fetched with the user's cookies into the other user's folder.
    @Test func aWayToDIRAnotherUserCanChangeIsRefusedBeforeAnythingIsWritten() async throws {
        let scratch = try ScratchDirectory()
        let library = scratch.child("Videos")
        try await withSampleServer { server in
            let first = try await runner.run(["-", "--dir", library, "--no-notify"],
                                             stdin: PayloadBuilder.json([(key: "home", title: "Home", url: server.url("/bytes/3000.mp4"))]))
            #expect(first.exitCode == 0, "\(first.stderr)")
            let file = ScratchDirectory.media(library, "home")
            let placed = Date(timeIntervalSinceNow: -10 * 86_400)
            try FileManager.default.setAttributes([.modificationDate: placed], ofItemAtPath: file)
            try await sql(library, "UPDATE item SET updatedAt = ? WHERE key = ?", [Self.storeTime(placed.addingTimeInterval(1)), "home"])
            let before = ScratchDirectory.contents(file)

            // Another user's sticky folder, and in it, where DIR was, a link to the library.
            let share = scratch.child("share")
            try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
            #expect(chmod(share, 0o1777) == 0 && chown(share, 65_534, gid_t.max) == 0)
            try FileManager.default.createSymbolicLink(atPath: share + "/vids", withDestinationPath: library)
            let run = try await runner.run(["-", "--dir", share + "/vids", "--json", "--no-notify", "--keep-days", "1"],
                                           stdin: PayloadBuilder.json([(key: "next", title: "Next", url: server.url("/bytes/100.mp4"))]))
            #expect(run.exitCode == 73, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("vodapp: cannot use \(share)/vids for media: \(share) can be changed by"), "\(run.stderr)")
            #expect(run.stderr.contains("keep DIR on a path only you (and root) can change"), "\(run.stderr)")
            #expect(ScratchDirectory.contents(file) == before)
            #expect(ScratchDirectory.visibleMedia(library) == [(file as NSString).lastPathComponent])

            // A sticky folder of root's, shared by a family (1775), and in it a link of another
            // user's to the library: the folder is fine, the name is theirs to replace (fourth
            // attacker trial: three of the library's files removed).
            let family = scratch.child("family")
            try FileManager.default.createDirectory(atPath: family, withIntermediateDirectories: true)
            // The family's group (`users`), not root's own: a group only root is in lets nobody
            // else write (`WorkAreaOwnership.isPrivateGroup`).
            #expect(chmod(family, 0o1775) == 0 && chown(family, 0, getgrnam("users")?.pointee.gr_gid ?? 100) == 0)
            try FileManager.default.createSymbolicLink(atPath: family + "/kids", withDestinationPath: library)
            #expect(lchown(family + "/kids", 65_534, gid_t.max) == 0)
            let theirs = try await runner.run(["-", "--dir", family + "/kids", "--json", "--no-notify", "--max-total", "1K"],
                                              stdin: PayloadBuilder.json([(key: "kid", title: "Kid", url: server.url("/bytes/100.mp4?kid"))]))
            #expect(theirs.exitCode == 73, "\(theirs.stderr)")
            let nobody = getpwuid(65_534).map { "user " + String(cString: $0.pointee.pw_name) } ?? "uid 65534"
            #expect(theirs.stderr.contains("\(family)/kids is \(nobody)'s, in a folder others may write in"), "\(theirs.stderr)")
            #expect(ScratchDirectory.contents(file) == before)
            #expect(ScratchDirectory.visibleMedia(library) == [(file as NSString).lastPathComponent])
        }
    }

    /// A `playlist.m3u8` of the user's own in DIR is left as it is: vodapp writes its playlist as
    /// `vodapp.m3u8` and says so once. One an earlier vodapp wrote (without the marker line) is
    /// still vodapp's.
    @Test func theUsersOwnPlaylistIsNeverOverwritten() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let mine = "#EXTM3U\n#EXTINF:-1,My mix\n/home/me/Music/song.mp3\n"
        try mine.write(toFile: dir + "/playlist.m3u8", atomically: true, encoding: .utf8)
        try await withSampleServer { server in
            for (index, key) in ["a", "b"].enumerated() {
                let run = try await runner.run(["-", "--dir", dir, "--no-notify"],
                                               stdin: PayloadBuilder.json([(key: key, title: key.uppercased(), url: server.url("/bytes/100.mp4?\(key)"))]))
                #expect(run.exitCode == 0, "\(run.stderr)")
                let said = run.stderr.contains("\(dir)/playlist.m3u8 is not vodapp's, and stays as it is: vodapp's playlist is \(dir)/vodapp.m3u8")
                #expect(said == (index == 0), "\(index): \(run.stderr)")
            }
            #expect(try String(contentsOfFile: dir + "/playlist.m3u8", encoding: .utf8) == mine)
            let ours = try String(contentsOfFile: dir + "/vodapp.m3u8", encoding: .utf8)
            #expect(ours.contains("A [a].mp4") && ours.contains("B [b].mp4"), "\(ours)")

            // The user's goes away: vodapp's playlist.m3u8 starts from what vodapp.m3u8 listed
            // (it listed only the new item before, the new-user trial found).
            try FileManager.default.removeItem(atPath: dir + "/playlist.m3u8")
            let back = try await runner.run(["-", "--dir", dir, "--no-notify"],
                                            stdin: PayloadBuilder.json([(key: "e", title: "E", url: server.url("/bytes/100.mp4?e"))]))
            #expect(back.exitCode == 0, "\(back.stderr)")
            let again = try String(contentsOfFile: dir + "/playlist.m3u8", encoding: .utf8)
            #expect(["A [a].mp4", "B [b].mp4", "E [e].mp4"].allSatisfy(again.contains), "\(again)")

            // A playlist of an earlier vodapp's, without the marker, is the user's now too
            // (`recordsOfTheKeysInTheUsersListDoNotMakeItVodapps`): the warning says how to hand
            // it back, and removed, it is written again, with what vodapp.m3u8 listed.
            let other = scratch.child("other")
            try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
            let earlier = try await runner.run(["-", "--dir", other, "--no-notify"],
                                               stdin: PayloadBuilder.json([(key: "c", title: "C", url: server.url("/bytes/100.mp4?c"))]))
            #expect(earlier.exitCode == 0)
            let old = "#EXTM3U\n#EXTINF:-1,C\nC [c].mp4\n"
            try old.write(toFile: other + "/playlist.m3u8", atomically: true, encoding: .utf8)
            let later = try await runner.run(["-", "--dir", other, "--no-notify"],
                                             stdin: PayloadBuilder.json([(key: "d", title: "D", url: server.url("/bytes/100.mp4?d"))]))
            #expect(later.exitCode == 0)
            #expect(later.stderr.contains("vodapp's playlist is \(other)/vodapp.m3u8; if an earlier vodapp wrote it, remove it, "
                                          + "and vodapp writes it again"), "\(later.stderr)")
            #expect(try String(contentsOfFile: other + "/playlist.m3u8", encoding: .utf8) == old)
            try FileManager.default.removeItem(atPath: other + "/playlist.m3u8")
            let handedBack = try await runner.run(["-", "--dir", other, "--no-notify"],
                                                  stdin: PayloadBuilder.json([(key: "e", title: "E", url: server.url("/bytes/100.mp4?e"))]))
            #expect(handedBack.exitCode == 0)
            let written = try String(contentsOfFile: other + "/playlist.m3u8", encoding: .utf8)
            #expect(["D [d].mp4", "E [e].mp4"].allSatisfy(written.contains), "\(written)")
        }
    }

    /// A user's list in the shape vodapp's playlists had before their marker (yt-dlp's
    /// `Title [id].ext` names), its files elsewhere: a push anyone could send of its keys left
    /// records of them (seventh attacker trial), or made vodapp place files under its names (the
    /// eighth), and either made the list vodapp's, and the next delivery rewrote it. Only the
    /// marker makes a list vodapp's now.
    @Test func recordsOfTheKeysInTheUsersListDoNotMakeItVodapps() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let mine = "#EXTM3U\n#EXTINF:-1,Concert\nConcert [dQw4w9WgXcQ].mp4\n#EXTINF:-1,Talk\nTalk [abcDEF12345].webm\n"
        try mine.write(toFile: dir + "/playlist.m3u8", atomically: true, encoding: .utf8)
        try await withSampleServer { server in
            let listener = try await ListenerUnderTest(dir: dir)
            let push = PayloadBuilder.json([(key: "dQw4w9WgXcQ", title: "Concert", url: server.url("/status/404")),
                                            (key: "abcDEF12345", title: "Talk", url: server.url("/status/404"))])
            #expect(await listener.post(push, wait: true).status == 200)
            // The eighth trial's way: the list's very names placed by vodapp, from a push's server.
            let placing = PayloadBuilder.json([(key: "dQw4w9WgXcQ", title: "Concert", url: server.url("/bytes/100.mp4?c")),
                                               (key: "abcDEF12345", title: "Talk", url: server.url("/bytes/100.webm?t"))])
            #expect(await listener.post(placing, wait: true).status == 200)
            #expect(await listener.post(PayloadBuilder.json([(key: "next", title: "Next", url: server.url("/bytes/100.mp4"))]),
                                        wait: true).status == 200)
            _ = try await listener.stop()
            #expect(try String(contentsOfFile: dir + "/playlist.m3u8", encoding: .utf8) == mine)
            let ours = try String(contentsOfFile: dir + "/vodapp.m3u8", encoding: .utf8)
            #expect(ours.contains("Next [next].mp4"), "\(ours)")
        }
    }
}
