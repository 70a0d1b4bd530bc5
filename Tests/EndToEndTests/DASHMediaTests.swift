import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// DASH from a real server: what ffmpeg's `dash` muxer makes (template with number, template
/// with timeline, a single file by list), and a `SegmentBase` single file with its `sidx`,
/// served by nginx and fetched by the built `vodapp`; what arrives is checked with ffprobe,
/// ffmpeg and mpv (`PlayableStream`).
@Suite(.serialized) struct DASHMediaTests {
    let runner = VODAppRunner()

    private func deliver(_ url: String, into dir: String, _ extra: [String] = []) async throws -> VODAppRunner.Run {
        try await runner.run(["-", "--dir", dir, "--json", "--no-notify"] + extra,
                             stdin: PayloadBuilder.json([(key: "dash", title: "Dash", url: url)]))
    }

    @Test(arguments: MediaFixtures.DASHLayout.allCases)
    func aDASHPresentationArrivesAsOneMP4WithItsSound(layout: MediaFixtures.DASHLayout) async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let dash = try await MediaFixtures.dash(from: clip, layout: layout)
        let scratch = try ScratchDirectory()
        let run = try await deliver(nginx.url(dash.manifest), into: scratch.path)
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.item("dash")?["status"] as? String == "downloaded", "\(run.stdout)")
        let path = ScratchDirectory.media(scratch.path, "dash")
        await PlayableStream.expect(path, lastsLike: clip.duration)
        let video = await MediaFixtures.ffprobeStream(path, "video")
        #expect(video?.width == 160 && video?.height == 90, "\(String(describing: video))")
        let variant = run.item("dash")?["variant"] as? [String: Any]
        #expect(variant?["resolution"] as? String == "160x90", "\(run.stdout)")
        #expect((variant?["codecs"] as? [String])?.first?.hasPrefix("avc1.") == true, "\(run.stdout)")
        // Nothing of the work area is left once the file is placed.
        #expect(ScratchDirectory.allEntries(scratch.path + "/.vodapp/partial").isEmpty)
    }

    @Test func theAudioLanguageWantedIsTheOneInTheFile() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let dash = try await MediaFixtures.dash(from: clip, twoLanguages: true)
        for (wanted, rate, tag) in [("de", 22050, "deu"), ("fr,en", 44100, "eng")] {
            let scratch = try ScratchDirectory()
            let run = try await deliver(nginx.url(dash.manifest), into: scratch.path, ["--audio-lang", wanted])
            #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
            let path = ScratchDirectory.media(scratch.path, "dash")
            await PlayableStream.expect(path, lastsLike: clip.duration)
            let audio = await MediaFixtures.ffprobeStream(path, "audio")
            #expect(audio?.sampleRate == rate && audio?.language == tag, "--audio-lang \(wanted): \(String(describing: audio))")
            let chosen = (run.item("dash")?["variant"] as? [String: Any])?["audio"] as? [String: Any]
            #expect(chosen?["language"] as? String == tag, "\(run.stdout)")
        }
    }

    /// Sound alone in two languages: the language wanted chooses the set, and the `.m4a` says it.
    @Test func soundAloneArrivesAsAnM4AInTheLanguageWanted() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let directory = nginx.root + "/sound"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = try await MediaFixtures.run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", clip.absolutePath, "-map", "0:a", "-map", "0:a",
                                                          "-c:a", "aac", "-b:a", "32k", "-ar:a:0", "44100", "-ar:a:1", "22050",
                                                          "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=deu",
                                                          "-adaptation_sets", "id=0,streams=0 id=1,streams=1",
                                                          "-f", "dash", "-seg_duration", "1", directory + "/manifest.mpd"])
        let scratch = try ScratchDirectory()
        let run = try await deliver(nginx.url("sound/manifest.mpd"), into: scratch.path, ["--audio-lang", "de"])
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        let path = try #require(ScratchDirectory.visibleMedia(scratch.path).first.map { scratch.path + "/" + $0 })
        await PlayableStream.expect(path, lastsLike: clip.duration, types: ["audio"])
        let audio = await MediaFixtures.ffprobeStream(path, "audio")
        #expect(audio?.sampleRate == 22050 && audio?.language == "deu", "\(String(describing: audio))")
        let chosen = (run.item("dash")?["variant"] as? [String: Any])?["audio"] as? [String: Any]
        #expect(chosen?["language"] as? String == "deu", "\(run.stdout)")
    }

    /// A manifest whose root comes after a long comment arrives, as `application/dash+xml` and
    /// as the `application/octet-stream` a server that does not know `.mpd` sends (Debian's
    /// nginx); it was refused as "not an HLS playlist" (tenth attacker trial).
    @Test func aManifestBehindALongCommentIsStillDASH() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let dash = try await MediaFixtures.dash(from: clip)
        let manifest = try String(contentsOfFile: nginx.root + "/" + dash.manifest, encoding: .utf8)
        let comment = "<!-- " + String(repeating: "made by a packager that says a lot about itself. ", count: 40) + "-->\n"
        let commented = manifest.replacingOccurrences(of: "<MPD ", with: comment + "<MPD ")
        try commented.write(toFile: nginx.root + "/dash/commented.mpd", atomically: true, encoding: .utf8)
        try commented.write(toFile: nginx.root + "/dash/commented.bin", atomically: true, encoding: .utf8)
        for name in ["commented.mpd", "commented.bin"] {
            let scratch = try ScratchDirectory()
            let run = try await deliver(nginx.url("dash/" + name), into: scratch.path)
            #expect(run.exitCode == 0, "\(name): \(run.stdout) \(run.stderr)")
            await PlayableStream.expect(ScratchDirectory.media(scratch.path, "dash"), lastsLike: clip.duration)
        }
    }

    /// A segment that is not what it says (random bytes) ends its track early in the demuxer:
    /// the short file is not placed as the stream; the item fails for now, its segments are
    /// fetched again, and once the server is mended it arrives.
    @Test func aDamagedSegmentFailsTheItemUntilTheServerMendsIt() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 6, root: nginx.root)
        let dash = try await MediaFixtures.dash(from: clip)
        let segment = nginx.root + "/dash/chunk-stream0-00002.m4s"
        let good = try #require(FileManager.default.contents(atPath: segment))
        var generator = SystemRandomNumberGenerator()
        try Data((0..<good.count).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: segment))
        let scratch = try ScratchDirectory()
        let damaged = try await deliver(nginx.url(dash.manifest), into: scratch.path)
        #expect(damaged.exitCode == 75, "\(damaged.stdout) \(damaged.stderr)")
        let item = try #require(damaged.item("dash"))
        #expect(item["status"] as? String == "failed" && item["final"] as? Bool != true, "\(damaged.stdout)")
        #expect((item["error"] as? String)?.hasSuffix("the playlist lists: a segment is damaged or not what it says") == true, "\(damaged.stdout)")
        #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)

        try good.write(to: URL(fileURLWithPath: segment))
        let mended = try await deliver(nginx.url(dash.manifest), into: scratch.path)
        #expect(mended.exitCode == 0, "\(mended.stdout) \(mended.stderr)")
        await PlayableStream.expect(ScratchDirectory.media(scratch.path, "dash"), lastsLike: clip.duration)
    }

    /// An https manifest leads only to https: a `SegmentBase` file on http fails the item for
    /// good before its index is asked for (its range request went out in clear first: tenth
    /// attacker trial).
    @Test func anHTTPSManifestAsksNothingOverHTTP() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let dash = try await MediaFixtures.dash(from: clip, layout: .singleFileIndexed)
        let manifest = try String(contentsOfFile: nginx.root + "/" + dash.manifest, encoding: .utf8)
            .replacingOccurrences(of: "<BaseURL>", with: "<BaseURL>" + nginx.url("dash/"))
        let tls = try await TLSTestServer(manifest: manifest)
        defer { tls.stop() }
        let scratch = try ScratchDirectory()
        let run = try await deliver(tls.baseURL + "/manifest.mpd", into: scratch.path, ["--cacert", tls.certificatePath])
        #expect(run.exitCode == 69, "\(run.stdout) \(run.stderr)")
        #expect((run.item("dash")?["error"] as? String)?.contains("is on https but names http://127.0.0.1:\(nginx.port)/dash/") == true,
                "\(run.stdout)")
        #expect(tls.requests == ["/manifest.mpd"], "\(tls.requests)")
        #expect(nginx.requests.isEmpty, "\(nginx.requests)")
    }

    @Test func aLiveOrEncryptedManifestFailsForGoodBeforeAnySegmentIsAsked() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let dash = try await MediaFixtures.dash(from: clip)
        let manifest = try String(contentsOfFile: nginx.root + "/" + dash.manifest, encoding: .utf8)
        try manifest.replacingOccurrences(of: #"type="static""#, with: #"type="dynamic""#)
            .write(toFile: nginx.root + "/dash/live.mpd", atomically: true, encoding: .utf8)
        let protection = #"<ContentProtection schemeIdUri="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"/>"#
        try manifest.replacingOccurrences(of: "<Representation ", with: protection + "<Representation ")
            .write(toFile: nginx.root + "/dash/drm.mpd", atomically: true, encoding: .utf8)
        let scratch = try ScratchDirectory()
        let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify"], stdin: PayloadBuilder.json([
            (key: "live", title: "Live", url: nginx.url("dash/live.mpd")), (key: "drm", title: "DRM", url: nginx.url("dash/drm.mpd")),
        ]))
        #expect(run.exitCode == 69, "\(run.stdout)")
        #expect(run.item("live")?["error"] as? String
                == "the DASH manifest is live (type=\"dynamic\"): only finished videos (VOD) can be downloaded", "\(run.stdout)")
        #expect(run.item("drm")?["error"] as? String
                == "the DASH streams are encrypted (DRM: ContentProtection), which vodapp cannot decrypt", "\(run.stdout)")
        #expect(run.item("live")?["final"] as? Bool == true && run.item("drm")?["final"] as? Bool == true)
        // Only the manifests were asked for.
        let asked = try await nginx.waitForRequests { $0.count >= 2 }.map(\.uri)
        #expect(asked.sorted() == ["/dash/drm.mpd", "/dash/live.mpd"], "\(asked)")
        #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
    }

    /// A DASH item the budget cut keeps its whole segments, is partial in `status`, and the
    /// next delivery fetches only the rest.
    @Test func aCutDASHItemResumesWithTheSegmentsItHas() async throws {
        let nginx = try await NginxServer(serverDirectives: """
            location ~ /chunk-stream0-00002\\.m4s$ { if (!-f $document_root/open) { set $limit_rate 1k; } }
            """)
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let dash = try await MediaFixtures.dash(from: clip)
        let scratch = try ScratchDirectory()
        let cut = try await deliver(nginx.url(dash.manifest), into: scratch.path, ["--budget", "4"])
        #expect(cut.exitCode == 75, "\(cut.stdout) \(cut.stderr)")
        #expect(cut.item("dash")?["status"] as? String == "timedOut", "\(cut.stdout)")
        #expect((cut.item("dash")?["error"] as? String)?.hasSuffix(" of 6 DASH segments; they are kept for the next delivery") == true,
                "\(cut.stdout)")
        let text = try await runner.run(["status", "--dir", scratch.path])
        #expect(text.stdout.contains(" kept, stream segments, whole or cut: the next delivery fetches the rest"), "\(text.stdout)")

        // How many of the other parts a 4 s budget fetched is the machine's speed: what matters
        // is that none of them is fetched again.
        let before = try await nginx.waitForRequests { $0.contains { $0.uri.hasSuffix("/manifest.mpd") } }
        let whole = Set(before.filter { $0.uri.hasSuffix(".m4s") && !$0.uri.hasSuffix("/chunk-stream0-00002.m4s") && $0.status == 200 }
            .map(\.uri))
        #expect(!whole.isEmpty, "\(before)")
        try Data().write(to: URL(fileURLWithPath: nginx.root + "/open"))
        let resumed = try await deliver(nginx.url(dash.manifest), into: scratch.path)
        #expect(resumed.exitCode == 0, "\(resumed.stdout) \(resumed.stderr)")
        await PlayableStream.expect(ScratchDirectory.media(scratch.path, "dash"), lastsLike: clip.duration)
        let fetchedAgain = nginx.requests.dropFirst(before.count).filter { whole.contains($0.uri) }
        #expect(fetchedAgain.isEmpty, "\(fetchedAgain)")
    }
}
