import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// What a user finds in DIR: files named `Title [key].ext`, and `playlist.m3u8` for a media
/// player, across deliveries that add items, change titles and lose files.
@Suite struct NamesAndPlaylistTests {
    /// The line that marks a playlist as vodapp's own, to rewrite.
    private let marker = "#VODAPP: written by vodapp, which rewrites it after each delivery"
    let runner = VODAppRunner()

    private func run(_ items: [(key: String, item: [String: Any])], into dir: String,
                     _ extra: [String] = []) async throws -> VODAppRunner.Run {
        try await runner.run(["-", "--dir", dir, "--json", "--no-notify"] + extra, stdin: PayloadBuilder.json(items))
    }

    private func playlist(_ dir: String) -> String? {
        try? String(contentsOfFile: dir + "/playlist.m3u8", encoding: .utf8)
    }

    @Test func twoItemsWithTheSameTitleGetTwoFiles() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let result = try await run([
                (key: "ep1", item: ["title": "Episode", "url": server.url("/bytes/1000.mp4")]),
                (key: "ep2", item: ["title": "Episode", "url": server.url("/bytes/2000.mp4")]),
            ], into: scratch.path)
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(ScratchDirectory.visibleMedia(scratch.path) == ["Episode [ep1].mp4", "Episode [ep2].mp4"])
            #expect(holdsSampleBytes(scratch.child("Episode [ep1].mp4"), count: 1000))
            #expect(holdsSampleBytes(scratch.child("Episode [ep2].mp4"), count: 2000))
        }
    }

    @Test func aNewTitleForAPresentKeyRenamesNothingAndFetchesNothing() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let url = server.url("/bytes/1000.mp4")
            let first = try await run([(key: "k", item: ["title": "Old title", "url": url])], into: scratch.path)
            #expect(first.exitCode == 0)
            let second = try await run([(key: "k", item: ["title": "New title", "subtitle": "Recut", "url": url])], into: scratch.path)
            #expect(second.exitCode == 0)
            #expect(second.item("k")?["status"] as? String == "alreadyPresent")
            #expect(second.item("k")?["path"] as? String == scratch.child("Old title [k].mp4"))
            #expect(ScratchDirectory.visibleMedia(scratch.path) == ["Old title [k].mp4"])
            #expect(server.requests.count == 1)
            // The player shows the title the publisher gives today; the file keeps its name.
            #expect(playlist(scratch.path) == "#EXTM3U\n\(marker)\n#EXTINF:-1,New title — Recut\nOld title [k].mp4\n")
        }
    }

    @Test func keyNamesOnRequestAndFilesOfEitherStyleCountAsPresent() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let items = [(key: "k", item: ["title": "Tulips", "url": server.url("/bytes/1000.mp4")] as [String: Any])]
            let plain = try await run(items, into: scratch.path, ["--name", "key"])
            #expect(plain.exitCode == 0)
            #expect(ScratchDirectory.visibleMedia(scratch.path) == ["k.mp4"])
            // A DIR filled by --name key (or an earlier version) is not fetched again by default.
            let titled = try await run(items, into: scratch.path)
            #expect(titled.item("k")?["status"] as? String == "alreadyPresent")
            #expect(server.requests.count == 1)
        }
    }

    @Test func aURLWithoutAnExtensionTakesTheOneItsContentTypeNames() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let result = try await run([
                (key: "web", item: ["title": "Web", "url": server.url("/bytes/1000?type=video/webm")]),
                (key: "raw", item: ["title": "Raw", "url": server.url("/bytes/1000")]),
            ], into: scratch.path)
            #expect(result.exitCode == 0)
            #expect(ScratchDirectory.visibleMedia(scratch.path) == ["Raw [raw]", "Web [web].webm"])
            // And the next delivery finds both.
            let again = try await run([
                (key: "web", item: ["title": "Web", "url": server.url("/bytes/1000?type=video/webm")]),
                (key: "raw", item: ["title": "Raw", "url": server.url("/bytes/1000")]),
            ], into: scratch.path)
            #expect(again.items.map { $0["status"] as? String } == ["alreadyPresent", "alreadyPresent"])
            #expect(server.requests.count == 2)
        }
    }

    @Test func thePlaylistFollowsThePayloadSurvivesAdditionsAndNeverListsAMissingFile() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.path
        try await withSampleServer { server in
            // Keys in neither sorted nor any hash order; a failure and a drop among them.
            let first = try await run([
                (key: "zeta", item: ["title": "Pilot", "subtitle": "Part one", "url": server.url("/bytes/1000.mp4")]),
                (key: "gone", item: ["title": "Gone", "url": server.url("/status/404")]),
                (key: "alpha", item: ["title": "#2: the return", "url": server.url("/bytes/2000.mp4")]),
                (key: "huge", item: ["title": "Huge", "url": server.url("/bytes/\(30 << 20).mp4")]),
                (key: "mid", item: ["title": "Finale", "subtitle": "", "url": server.url("/bytes/3000.mp4")]),
            ], into: dir)
            // The 404 is final, and nothing failed in a way that may pass later.
            #expect(first.exitCode == 69)
            // Relative names, the payload's order; a name that starts with # would be a comment.
            #expect(playlist(dir) == """
                #EXTM3U
                \(marker)
                #EXTINF:-1,Pilot — Part one
                Pilot [zeta].mp4
                #EXTINF:-1,#2: the return
                ./#2\u{FF1A} the return [alpha].mp4
                #EXTINF:-1,Finale
                Finale [mid].mp4

                """)

            // An incremental push: what came before stays, the new item follows.
            let second = try await run([(key: "new", item: ["title": "Bonus", "url": server.url("/bytes/4000.mp4")])], into: dir)
            #expect(second.exitCode == 0)
            #expect(entries(playlist(dir)) == ["Pilot [zeta].mp4", "./#2\u{FF1A} the return [alpha].mp4", "Finale [mid].mp4",
                                              "Bonus [new].mp4"])

            // A file the user deleted leaves the playlist at the next delivery.
            try FileManager.default.removeItem(atPath: scratch.child("Finale [mid].mp4"))
            let third = try await run([(key: "last", item: ["title": "Last", "url": server.url("/bytes/500.mp4")])], into: dir)
            #expect(third.exitCode == 0)
            let listed = entries(playlist(dir))
            #expect(listed == ["Pilot [zeta].mp4", "./#2\u{FF1A} the return [alpha].mp4", "Bonus [new].mp4", "Last [last].mp4"])
            for name in listed {
                let path = dir + "/" + (name.hasPrefix("./") ? String(name.dropFirst(2)) : name)
                #expect(FileManager.default.fileExists(atPath: path), "\(name) is listed but missing")
            }
        }
    }

    /// The file lines of a playlist.
    private func entries(_ text: String?) -> [String] {
        (text ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }
}
