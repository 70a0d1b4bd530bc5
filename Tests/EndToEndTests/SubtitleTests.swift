import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// `--subtitles`: WebVTT renditions of real HLS and DASH streams (ffmpeg's, and Apple's way of
/// segmenting them) served by nginx, fetched by the built `vodapp`, and placed as `NAME.LANG.vtt`
/// beside the file, where mpv finds them on its own.
@Suite(.serialized) struct SubtitleTests {
    let runner = VODAppRunner()

    private func deliver(_ url: String, key: String = "film", into dir: String, _ extra: [String] = []) async throws -> VODAppRunner.Run {
        try await runner.run(["-", "--dir", dir, "--json", "--no-notify"] + extra,
                             stdin: PayloadBuilder.json([(key: key, title: "A Film", url: url)]))
    }

    /// The cues of a WebVTT file: start and end in seconds, and the text.
    private func cues(_ path: String) throws -> [(start: Double, end: Double, text: String)] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("WEBVTT\n"), "\(text)")
        func seconds(_ stamp: Substring) -> Double {
            let parts = stamp.split(separator: ":").compactMap { Double($0) }
            return parts.reduce(0) { $0 * 60 + $1 }
        }
        return text.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard let timing = lines.first, timing.contains("-->") else { return nil }
            let fields = timing.split(separator: " ")
            return (seconds(fields[0]), seconds(fields[2]), lines.dropFirst().joined(separator: "\n"))
        }
    }

    private func subtitles(_ run: VODAppRunner.Run, _ key: String = "film") -> [[String: Any]] {
        run.item(key)?["subtitles"] as? [[String: Any]] ?? []
    }

    /// `all`: English (ffmpeg's segments, no timestamp map) and French (Apple's: a map to the
    /// MPEG-TS clock, cues repeated across segments) beside the MP4, the forced French left out;
    /// each cue where the picture has it, once; mpv loads both with the file. Delivered again,
    /// nothing changes.
    @Test(arguments: [false, true])
    func everyLanguageArrivesBesideTheFileOnItsTimeline(fragmentedMP4: Bool) async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let hls = try await MediaFixtures.hlsSubtitles(from: clip, fragmentedMP4: fragmentedMP4)
        let scratch = try ScratchDirectory()
        let url = nginx.url(try #require(hls.master))
        let run = try await deliver(url, into: scratch.path, ["--subtitles", "all"])
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        let video = ScratchDirectory.media(scratch.path, "film")
        #expect(video == scratch.path + "/A Film [film].mp4")
        await PlayableStream.expect(video, lastsLike: clip.duration)

        let english = try cues(scratch.path + "/A Film [film].en.vtt")
        #expect(english.map(\.text) == ["Hello", "Across the boundary", "Bye"], "\(english)")
        // ffmpeg's segmenter writes its cues 24 ms late; the source has Hello at 1.0 s.
        #expect(abs(english[0].start - 1.0) < 0.1 && abs(english[0].end - 1.8) < 0.1, "\(english)")
        let french = try cues(scratch.path + "/A Film [film].fr.vtt")
        #expect(french.map(\.text) == ["Bonjour", "Au revoir"], "each once: \(french)")
        #expect(abs(french[0].start - 0.5) < 0.05 && abs(french[0].end - 1.2) < 0.05, "on the file's clock, not the MPEG-TS one: \(french)")
        #expect(abs(french[1].start - 1.5) < 0.05, "\(french)")
        let frenchText = try String(contentsOfFile: scratch.path + "/A Film [film].fr.vtt", encoding: .utf8)
        #expect(frenchText.contains("line:90%") && !frenchText.contains("X-TIMESTAMP-MAP"), "\(frenchText)")
        #expect(!frenchText.contains("FORCÉ"))

        let reported = subtitles(run)
        #expect(reported.map { $0["language"] as? String } == ["en", "fr"], "\(run.stdout)")
        #expect(reported.allSatisfy { $0["error"] == nil && ($0["path"] as? String)?.hasSuffix(".vtt") == true }, "\(run.stdout)")
        #expect(reported.last?["name"] as? String == "Français", "\(run.stdout)")

        let loaded = try await MPVPlayback.externalSubtitles(of: video)
        #expect(Set(loaded.map(\.file)) == ["A Film [film].en.vtt", "A Film [film].fr.vtt"], "\(loaded)")
        #expect(Set(loaded.map(\.language)) == ["en", "fr"], "\(loaded)")
        // Nothing of the work area is left once the file is placed.
        #expect(ScratchDirectory.allEntries(scratch.path + "/.vodapp/partial").isEmpty)

        let before = try FileManager.default.attributesOfItem(atPath: scratch.path + "/A Film [film].fr.vtt")
        let again = try await deliver(url, into: scratch.path, ["--subtitles", "all"])
        #expect(again.exitCode == 0 && again.item("film")?["status"] as? String == "alreadyPresent", "\(again.stdout)")
        let after = try FileManager.default.attributesOfItem(atPath: scratch.path + "/A Film [film].fr.vtt")
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { !$0.hasPrefix(".") }.sorted()
                == ["A Film [film].en.vtt", "A Film [film].fr.vtt", "A Film [film].mp4", "playlist.m3u8"])
    }

    /// By default none; a language asked for is the only one; a language not offered gives none
    /// and the file as ever; a forced rendition is never taken for the whole dialogue.
    @Test func onlyTheLanguagesAskedForAreFetched() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let hls = try await MediaFixtures.hlsSubtitles(from: clip)
        let url = nginx.url(try #require(hls.master))
        for (options, expected) in [([String](), [String]()), (["--subtitles", "fra"], ["A Film [film].fr.vtt"]),
                                    (["--subtitles", "de"], []), (["--subtitles", "none"], [])] {
            let scratch = try ScratchDirectory()
            let run = try await deliver(url, into: scratch.path, options)
            #expect(run.exitCode == 0 && run.item("film")?["status"] as? String == "downloaded", "\(options): \(run.stdout) \(run.stderr)")
            let placed = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasSuffix(".vtt") }.sorted()
            #expect(placed == expected, "\(options)")
            if options.last == "de" {
                let said = (run.item("film")?["subtitles"] as? [[String: Any]])?.first?["error"] as? String
                #expect(said == "the stream offers no WebVTT subtitles in de (it offers en, fr)", "\(run.stdout)")
            }
            if let file = expected.first {
                #expect(try cues(scratch.path + "/" + file).map(\.text) == ["Bonjour", "Au revoir"])
            }
        }
    }

    /// A DASH manifest's WebVTT text set, one file for the whole presentation.
    @Test func aDASHTextSetArrivesBesideTheFile() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let dash = try await MediaFixtures.dash(from: clip, subtitles: true)
        let scratch = try ScratchDirectory()
        let run = try await deliver(nginx.url(dash.manifest), into: scratch.path, ["--subtitles", "en"])
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        await PlayableStream.expect(scratch.path + "/A Film [film].mp4", lastsLike: clip.duration)
        let english = try cues(scratch.path + "/A Film [film].en.vtt")
        #expect(english.map(\.text) == ["Hello", "Across the boundary", "Bye"], "\(english)")
        #expect(abs(english[0].start - 1.0) < 0.05, "\(english)")
        let loaded = try await MPVPlayback.externalSubtitles(of: scratch.path + "/A Film [film].mp4")
        #expect(loaded.map(\.file) == ["A Film [film].en.vtt"], "\(loaded)")
    }

    /// Subtitles are extras: one that is missing, not WebVTT, or whose name is taken by the
    /// user's own file never costs the video, and the report says why of each. The user's file
    /// stays byte for byte; a hostile LANGUAGE names no path.
    @Test func aSubtitleThatCannotBeMadeNeverCostsTheVideoOrTheUsersFile() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let hls = try await MediaFixtures.hlsSubtitles(from: clip)
        let master = hls.absolute(try #require(hls.master))
        var text = try String(contentsOfFile: master, encoding: .utf8)
        // Spanish is a 404; German's segment is a login page; a LANGUAGE tries to climb out.
        try FileManager.default.createDirectory(atPath: hls.absolute(hls.directory + "/de"), withIntermediateDirectories: true)
        try "<html><body>Please log in</body></html>".write(toFile: hls.absolute(hls.directory + "/de/0.vtt"), atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3.0,\n0.vtt\n#EXT-X-ENDLIST\n"
            .write(toFile: hls.absolute(hls.directory + "/de/index.m3u8"), atomically: true, encoding: .utf8)
        text = text.replacingOccurrences(of: "#EXT-X-STREAM-INF", with: """
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Español",LANGUAGE="es",URI="es/missing.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Deutsch",LANGUAGE="de",URI="de/index.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Nederlands",LANGUAGE="../../../nl",URI="fr/index.m3u8"
            #EXT-X-STREAM-INF
            """)
        try text.write(toFile: master, atomically: true, encoding: .utf8)
        let scratch = try ScratchDirectory()
        let mine = scratch.path + "/A Film [film].en.vtt"
        try "WEBVTT\n\n00:00.000 --> 00:01.000\nmy own\n".write(toFile: mine, atomically: true, encoding: .utf8)

        let run = try await deliver(nginx.url(try #require(hls.master)), into: scratch.path, ["--subtitles", "all"])
        #expect(run.exitCode == 0 && run.item("film")?["status"] as? String == "downloaded", "\(run.stdout) \(run.stderr)")
        await PlayableStream.expect(scratch.path + "/A Film [film].mp4", lastsLike: clip.duration)
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "WEBVTT\n\n00:00.000 --> 00:01.000\nmy own\n")
        let reported = Dictionary(subtitles(run).map { ($0["language"] as? String ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
        #expect((reported["en"]?["error"] as? String)?.contains("not placed by vodapp") == true, "\(run.stdout)")
        #expect((reported["es"]?["error"] as? String)?.contains("404") == true, "\(run.stdout)")
        #expect((reported["de"]?["error"] as? String)?.contains("not WebVTT") == true, "\(run.stdout)")
        #expect(reported["fr"]?["error"] == nil && reported["und"]?["error"] == nil, "\(run.stdout)")
        // A language that is no language is undetermined.
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/A Film [film].und.vtt"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/A Film [film].de.vtt"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/A Film [film].es.vtt"))
        // Nothing was written outside DIR.
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/../nl.vtt"))

        // A person's summary says which came and why the others did not, one line each.
        let fresh = try ScratchDirectory()
        let summary = try await runner.run(["-", "--dir", fresh.path, "--no-notify", "--subtitles", "all"],
                                           stdin: PayloadBuilder.json([(key: "film", title: "A Film", url: nginx.url(try #require(hls.master)))]))
        #expect(summary.exitCode == 0, "\(summary.stdout) \(summary.stderr)")
        let lines = summary.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("with subtitles: en, fr, und"), "\(summary.stdout)")
        #expect(lines.contains { $0.hasPrefix("without the es subtitles: its playlist at ") && $0.contains("404") }, "\(summary.stdout)")
        #expect(lines.contains { $0.hasPrefix("without the de subtitles: its segment 1 is not WebVTT") }, "\(summary.stdout)")
    }

    /// Retention takes a video's subtitles with it, and only those it placed: the user's own
    /// subtitle file under a name of the same item stays.
    @Test func retentionRemovesTheSubtitlesWithTheirVideo() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let hls = try await MediaFixtures.hlsSubtitles(from: clip)
        let scratch = try ScratchDirectory()
        let first = try await deliver(nginx.url(try #require(hls.master)), into: scratch.path, ["--subtitles", "en,fr"])
        #expect(first.exitCode == 0, "\(first.stdout) \(first.stderr)")
        let mine = scratch.path + "/A Film [film].de.vtt"
        try "WEBVTT\n".write(toFile: mine, atomically: true, encoding: .utf8)
        // As if placed ten days ago: the files' times and the store's record.
        let old = Date(timeIntervalSinceNow: -10 * 86_400)
        for name in ["A Film [film].mp4", "A Film [film].en.vtt", "A Film [film].fr.vtt", "A Film [film].de.vtt"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: scratch.path + "/" + name)
        }
        let script = """
            import sqlite3, sys, datetime
            when = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=10)
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE item SET updatedAt = ? WHERE key = 'film'", (when.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],))
            db.commit()
            """
        let aged = try await runTool("python3", ["-c", script, scratch.path + "/.vodapp/state.sqlite"])
        #expect(aged.exitCode == 0, "\(aged.stderr)")

        let payload = PayloadBuilder.json([(key: "other", title: "Other", url: nginx.url(clip.path))])
        let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify", "--keep-days", "5"], stdin: payload)
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        let removed = (run.report?["removed"] as? [[String: Any]] ?? []).compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
        #expect(Set(removed) == ["A Film [film].mp4", "A Film [film].en.vtt", "A Film [film].fr.vtt"], "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { !$0.hasPrefix(".") }.sorted()
                == ["A Film [film].de.vtt", "Other [other].mp4", "playlist.m3u8"])
    }

    /// A subtitle that drips holds its video only a few seconds: the video is placed, the report
    /// says the subtitles did not come within that time, and the delivery ends without waiting
    /// for them. (A stream of 600 segments held until the budget's end was cut in its mux, on
    /// every delivery.)
    @Test func aSubtitleThatDripsHoldsItsVideoOnlyAFewSeconds() async throws {
        // A byte a second: each French segment would take a minute and a half.
        let nginx = try await NginxServer(serverDirectives: "location ~ \\.vtt$ { limit_rate 1; }")
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let hls = try await MediaFixtures.hlsSubtitles(from: clip)
        let scratch = try ScratchDirectory()
        let run = try await deliver(nginx.url(try #require(hls.master)), into: scratch.path, ["--subtitles", "fr", "--budget", "100"])
        #expect(run.exitCode == 0 && run.item("film")?["status"] as? String == "downloaded", "\(run.stdout) \(run.stderr)")
        await PlayableStream.expect(scratch.path + "/A Film [film].mp4", lastsLike: clip.duration)
        let french = subtitles(run).first
        #expect((french?["error"] as? String) == "it did not arrive within 5 s of its video", "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/A Film [film].fr.vtt"))
        // The transfers given up are dropped, not left to drip: the delivery reports long before
        // they would have ended (it waited for them, or for the budget, before).
        let elapsed = try #require(run.report?["elapsedSeconds"] as? Double)
        #expect(elapsed < 50, "\(run.stdout)")
    }

    /// A subtitle the user wrote at the name of one vodapp placed (its video removed, then
    /// fetched again) is the user's: the report does not claim it, and it stays.
    @Test func aSubtitleTheUserRewroteIsNotClaimed() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let hls = try await MediaFixtures.hlsSubtitles(from: clip)
        let scratch = try ScratchDirectory()
        let url = nginx.url(try #require(hls.master))
        let first = try await deliver(url, into: scratch.path, ["--subtitles", "en"])
        #expect(first.exitCode == 0, "\(first.stdout) \(first.stderr)")
        try FileManager.default.removeItem(atPath: scratch.path + "/A Film [film].mp4")
        let mine = scratch.path + "/A Film [film].en.vtt"
        try FileManager.default.removeItem(atPath: mine)
        try "WEBVTT\n\n00:00.000 --> 00:01.000\nmine now\n".write(toFile: mine, atomically: true, encoding: .utf8)
        let again = try await deliver(url, into: scratch.path, ["--subtitles", "en", "--refetch-removed"])
        #expect(again.exitCode == 0 && again.item("film")?["status"] as? String == "downloaded", "\(again.stdout) \(again.stderr)")
        #expect((subtitles(again).first?["error"] as? String)?.hasSuffix("is there already, not placed by vodapp: it stays as it is") == true,
                "\(again.stdout)")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "WEBVTT\n\n00:00.000 --> 00:01.000\nmine now\n")
    }
}
