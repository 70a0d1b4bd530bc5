import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// The input rows of the fault matrix (docs/RELIABILITY.md) that other suites do not already
/// cover: hostile titles, text that is not Unicode, 10,000 items, one URL under two keys, one key
/// twice in the JSON text.
@Suite struct InputFaultTests {
    let runner = VODAppRunner()

    @Test func hostileTitlesGiveSafeNamesAndReachTheReportIntact() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let url = server.url("/bytes/100.mp4")
            let long = String(repeating: "é", count: 10_000)
            // Raw JSON text, so that the escapes reach vodapp's parser exactly as written.
            let text = #"""
            {"aps": {"content-available": 1}, "playlist": {
              "slash": {"title": "../../etc/passwd", "url": "\#(url)?1"},
              "dots": {"title": "..", "url": "\#(url)?2"},
              "control": {"title": "a\u0000b\u001b[31mred\r\nX-Injected: 1", "url": "\#(url)?3"},
              "long": {"title": "\#(long)", "url": "\#(url)?4"}
            }}
            """#
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: Data(text.utf8))
            #expect(run.exitCode == 0, "\(run.stderr)")
            #expect(run.items.count == 4)
            #expect(run.items.allSatisfy { $0["status"] as? String == "downloaded" }, "\(run.stdout.prefix(2000))")
            // Titles reach names only made safe: no path, no hidden file, no control character,
            // at most 200 bytes of title (MediaFileNameTests has the rules one by one).
            #expect(ScratchDirectory.allEntries(scratch.path).filter { !$0.hasPrefix("media/.vodapp") }.sorted()
                    == ["media", "media/[dots].mp4", "media/a b [31mred X-Injected\u{FF1A} 1 [control].mp4", "media/playlist.m3u8",
                        "media/\(String(repeating: "é", count: 100)) [long].mp4",
                        "media/\u{29F8}..\u{29F8}etc\u{29F8}passwd [slash].mp4"])
            // The JSON report carries each title as the payload had it; JSON escapes what needs it.
            #expect(run.item("slash")?["title"] as? String == "../../etc/passwd")
            #expect(run.item("control")?["title"] as? String == "a\u{0}b\u{1b}[31mred\r\nX-Injected: 1")
            #expect((run.item("long")?["title"] as? String)?.count == 10_000)

            // The human summary is one line per item: no control character gets through.
            let human = try await runner.run(["-", "--dir", scratch.child("human"), "--no-notify"], stdin: Data(text.utf8))
            #expect(human.exitCode == 0)
            #expect(!human.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
            #expect(human.stdout.split(separator: "\n").count == 5, "\(human.stdout)")

            // The store keeps the whole title: SQLite's text would end at the NUL, so that one
            // character (and only it) is kept as U+FFFD.
            let status = try await runner.run(["status", "--dir", dir, "--json"])
            let stored = (status.report?["items"] as? [[String: Any]])?.first { $0["key"] as? String == "control" }
            #expect(stored?["title"] as? String == "a\u{FFFD}b\u{1b}[31mred\r\nX-Injected: 1", "\(status.stdout)")
        }
    }

    /// A lone surrogate escape or a byte that is not UTF-8 cannot become text: the payload is not
    /// UTF-8 JSON, so all of it is refused, as the contract says, and nothing is fetched.
    @Test(arguments: [Array(#"{"aps":{"content-available":1},"playlist":{"k":{"title":"half \ud800","url":"URL"}}}"#.utf8),
                      Array(#"{"aps":{"content-available":1},"playlist":{"k":{"title":"bad "#.utf8) + [0xC3, 0x28]
                        + Array(#"","url":"URL"}}}"#.utf8)])
    func textThatIsNotUnicodeRefusesThePayload(_ template: [UInt8]) async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let url = Array(server.url("/bytes/100.mp4").utf8)
            var bytes: [UInt8] = []
            var rest = template[...]
            while let range = rest.firstRange(of: Array("URL".utf8)) {
                bytes += rest[..<range.lowerBound] + url
                rest = rest[range.upperBound...]
            }
            bytes += rest
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: Data(bytes))
            #expect(run.exitCode == 65)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.hasPrefix("vodapp: invalid payload: "), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
            #expect(server.requests.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: dir))
        }
    }

    @Test func tenThousandItemsAreAllAccountedFor() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try await withSampleServer { server in
            var items: [(key: String, title: String, url: String)] = []
            for index in 0..<10_000 {
                let key = String(format: "k%05d", index)
                items.append((key: key, title: "Item \(index)", url: server.url("/bytes/64.mp4?n=\(index)")))
                // All but the last 100 are already there, so that the run is about scale, not I/O.
                if index < 9_900 { _ = FileManager.default.createFile(atPath: "\(dir)/\(key).mp4", contents: Data("x".utf8)) }
            }
            let payload = PayloadBuilder.json(items)
            #expect(payload.count < 1 << 20)
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
            #expect(run.exitCode == 0, "\(run.stderr)")
            #expect(run.items.count == 10_000)
            #expect(run.items.filter { $0["status"] as? String == "alreadyPresent" }.count == 9_900)
            #expect(run.items.filter { $0["status"] as? String == "downloaded" }.count == 100)
            #expect(server.requests.count == 100)
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "k09999"), count: 64))
        }
    }

    @Test func oneURLUnderTwoKeysGivesTwoFiles() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let url = server.url("/bytes/5000.mp4")
            let payload = PayloadBuilder.json([(key: "first", title: "One", url: url), (key: "second", title: "Two", url: url)])
            let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify"], stdin: payload)
            #expect(run.exitCode == 0)
            #expect(ScratchDirectory.visibleMedia(scratch.path) == ["One [first].mp4", "Two [second].mp4"])
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "first"), count: 5000))
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "second"), count: 5000))
            #expect(server.requests.count == 2)
        }
    }

    /// RFC 8259 leaves duplicate names to the parser; Foundation's keeps the first, and so one
    /// item, never two files for one key.
    @Test func theSameKeyTwiceOrATrailingCommaIsNotJSONAndFetchesNothing() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let twice = """
            {"aps": {"content-available": 1}, "playlist": {
              "twice": {"title": "First", "url": "\(server.url("/bytes/100.mp4"))"},
              "twice": {"title": "Second", "url": "\(server.url("/bytes/200.mp4"))"}
            }}
            """
            let trailing = """
            {"aps": {"content-available": 1}, "playlist": {
              "once": {"title": "First", "url": "\(server.url("/bytes/100.mp4"))"},
            }}
            """
            for (text, reason) in [(twice, #"the key "twice" appears twice in one object at line 3, column 3"#),
                                   (trailing, "a comma before }, with no value after it at line 2, column ")] {
                let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify"], stdin: Data(text.utf8))
                #expect(run.exitCode == 65)
                #expect(run.stderr.hasPrefix("vodapp: invalid payload: payload is not valid JSON: \(reason)"), "\(run.stderr)")
                // vodapp-push judges it with the same parser.
                let send = try await VODAppRunner(tool: "vodapp-push").run(["send", "-", "--to", "udp://127.0.0.1:9"], stdin: Data(text.utf8))
                #expect(send.exitCode == 65)
                #expect(send.stderr.contains(reason), "\(send.stderr)")
            }
            #expect(server.requests.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: scratch.path + "/.vodapp"))
        }
    }
}
