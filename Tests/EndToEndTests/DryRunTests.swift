import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// `--dry-run`: the built `vodapp` says what a payload would fetch, skip and remove, asks the
/// server nothing and leaves DIR as it was, byte for byte and time for time; then a real run
/// does what it said.
@Suite struct DryRunTests {
    let runner = VODAppRunner()
    static let mebibyte = 1 << 20

    /// Every entry under `dir`, its work area included, with its size and modification time;
    /// only the size of the store's shared-memory index (`-shm`, a mapped file that holds no
    /// record), whose time any reader of a store in WAL mode changes, as `vodapp status` does.
    private func snapshot(_ dir: String) -> [String: String] {
        var entries: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: dir)
        while let name = enumerator?.nextObject() as? String {
            var info = stat()
            guard lstat(dir + "/" + name, &info) == 0 else { continue }
            entries[name] = name.hasSuffix("-shm") ? "\(info.st_size)" : "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        return entries
    }

    @Test func itSaysWhatWouldHappenRequestsNothingWritesNothingAndTheRunAgrees() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("videos")
        try await withSampleServer { server in
            func entry(_ key: String) -> (key: String, title: String, url: String) {
                (key: key, title: key.uppercased(), url: server.url("/bytes/\(Self.mebibyte).mp4?\(key)"))
            }
            let first = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"],
                                             stdin: PayloadBuilder.json([entry("old"), entry("kept"), entry("gone")]))
            #expect(first.exitCode == 0, "\(first.stderr)")
            try FileManager.default.removeItem(atPath: ScratchDirectory.media(dir, "gone"))

            // kept is present, gone was deleted by the user, new is to fetch, and one key is
            // invalid; old is not named: --sync removes it once new is in, and --keep-days 0
            // would remove it now (its delivery has ended).
            let payload = PayloadBuilder.json([entry("kept"), entry("gone"), entry("new"), (key: "no/slash", title: "Bad", url: server.url("/x.mp4"))])
            let options = ["--dir", dir, "--no-notify", "--sync", "--keep-days", "0"]
            let before = snapshot(dir)
            let requests = server.requests.count
            let dry = try await runner.run(["-", "--dry-run"] + options, stdin: payload)
            #expect(dry.exitCode == 65, "\(dry.stdout) \(dry.stderr)")
            let lines = dry.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "dry run: nothing was requested or written in \(dir)")
            #expect(lines.contains("  already present KEPT -> \(ScratchDirectory.media(dir, "kept"))"), "\(dry.stdout)")
            #expect(lines.contains { $0.hasPrefix("  would skip      GONE: removed from DIR, not by vodapp; 'vodapp forget gone'") }, "\(dry.stdout)")
            #expect(lines.contains("  would fetch     NEW <- \(server.url("/bytes/\(Self.mebibyte).mp4?new"))"), "\(dry.stdout)")
            #expect(lines.contains { $0.hasPrefix("  invalid         Bad (key \"no/slash\"): ") }, "\(dry.stdout)")
            #expect(lines.contains("  --sync would remove 1 file (1.0 MiB), once the push's 1 item to come are in DIR:"), "\(dry.stdout)")
            #expect(lines.contains("    OLD (1.0 MiB): the latest push (3 items) does not name it (--sync)"), "\(dry.stdout)")
            #expect(lines.contains { $0.hasPrefix("  retention would remove 1 file (1.0 MiB), as DIR stands") }, "\(dry.stdout)")
            #expect(lines.contains("    OLD (1.0 MiB): older than 0 days (--keep-days 0)"), "\(dry.stdout)")
            #expect(lines.last == "dry run: 1 to fetch, 1 already present, 1 to skip, 1 invalid")
            #expect(server.requests.count == requests)
            #expect(snapshot(dir) == before)

            // The same as JSON, for scripts.
            let json = try await runner.run(["-", "--dry-run", "--json"] + options, stdin: payload)
            #expect(json.exitCode == 65)
            #expect(json.report?["dryRun"] as? Bool == true, "\(json.stdout)")
            let actions = (json.report?["items"] as? [[String: Any]] ?? []).map { "\($0["key"] ?? "") \($0["action"] ?? "")" }
            #expect(actions == ["kept present", "gone skip", "new fetch", "no/slash invalid"])
            #expect((json.report?["syncRemovals"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == ["old"])
            #expect(json.report?["syncWaitsFor"] as? [String] == ["new"])
            #expect(snapshot(dir) == before)

            // The real run does what the dry run said.
            let real = try await runner.run(["-", "--json"] + options, stdin: payload)
            #expect(real.exitCode == 65, "\(real.stderr)")
            #expect(real.items.map { "\($0["key"] ?? "") \($0["status"] ?? "")" }
                    == ["kept alreadyPresent", "gone removed", "new downloaded", "no/slash invalid"], "\(real.stdout)")
            #expect((real.report?["removed"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == ["old"], "\(real.stdout)")
            #expect(ScratchDirectory.visibleMedia(dir) == ["KEPT [kept].mp4", "NEW [new].mp4"])
        }
    }

    /// Nothing at all is made for a DIR that does not exist yet, and the listener refuses it:
    /// a dry run is one delivery's.
    @Test func aDirThatDoesNotExistStaysSoAndTheListenerRefusesIt() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("not-yet")
        let payload = PayloadBuilder.json([(key: "a", title: "A", url: "http://127.0.0.1:9/a.mp4")])
        let dry = try await runner.run(["-", "--dir", dir, "--dry-run"], stdin: payload)
        #expect(dry.exitCode == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("would fetch     A <- http://127.0.0.1:9/a.mp4"), "\(dry.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir))

        let listen = try await runner.run(["listen", "--dir", dir, "--dry-run"])
        #expect(listen.exitCode == 64)
        #expect(listen.stderr.contains("--dry-run is for one delivery: use it with handle, get or poll"), "\(listen.stderr)")
    }
}
