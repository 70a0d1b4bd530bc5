import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// Real media from a real server: nginx serving what ffmpeg makes, fetched by the built `vodapp`,
/// and what arrives checked with ffprobe. What a user sees: a file a player plays, or a failure
/// that says why and leaves nothing behind.
@Suite(.serialized) struct RealMediaTests {
    let runner = VODAppRunner()

    private func deliver(_ items: [(key: String, title: String, url: String)], into dir: String,
                         _ extra: [String] = []) async throws -> VODAppRunner.Run {
        try await runner.run(["-", "--dir", dir, "--json", "--no-notify"] + extra, stdin: PayloadBuilder.json(items))
    }

    private func probe(_ path: String, lastsLike source: Double) async {
        let duration = await MediaFixtures.ffprobeDuration(path)
        #expect(duration.map { abs($0 - source) <= 0.5 } == true, "\(path): ffprobe reads \(String(describing: duration)) s, the source has \(source) s")
    }

    /// What a stream item must be (`PlayableStream`): mpv plays it too.
    private func probeStream(_ path: String, lastsLike source: Double, sourceLocation: SourceLocation = #_sourceLocation) async {
        await PlayableStream.expect(path, lastsLike: source, sourceLocation: sourceLocation)
    }

    @Test func anHLSVODOfSeveralSegmentsArrivesAsOneFileOfTheRightVariant() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        let fmp4 = try await MediaFixtures.hlsFMP4(from: clip)
        let master = try #require(ts.master)
        let scratch = try ScratchDirectory()
        let dir = scratch.path

        let run = try await deliver([(key: "ts", title: "Transport", url: nginx.url(master)),
                                     (key: "fmp4", title: "Fragments", url: nginx.url(try #require(fmp4.master)))], into: dir)
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        #expect(ScratchDirectory.visibleMedia(dir) == ["Fragments [fmp4].mp4", "Transport [ts].mp4"])
        for key in ["ts", "fmp4"] {
            let path = ScratchDirectory.media(dir, key)
            await probeStream(path, lastsLike: clip.duration)
            // The best variant that fits 20 MiB: the 160x90 one, not the 96x54; the report says so.
            let video = await MediaFixtures.ffprobeStream(path, "video")
            #expect(video?.width == 160, "\(key): \(String(describing: video))")
            let variant = run.item(key)?["variant"] as? [String: Any]
            #expect(variant?["resolution"] as? String == "160x90" && variant?["variants"] as? Int == 2 && variant?["audio"] == nil,
                    "\(run.stdout)")
            #expect(run.item(key)?["bytes"] as? Int == Int(ScratchDirectory.contents(path)?.count ?? -1))
        }
        // Every segment of the chosen variant was fetched once, none of the other's.
        let requests = try await nginx.waitForRequests { $0.count >= ts.variants[0].segments.count }
        for segment in ts.variants[0].segments {
            #expect(requests.filter { $0.uri == "/" + segment }.count == 1, "\(segment): \(requests)")
        }
        #expect(!requests.contains { ts.variants[1].segments.contains(String($0.uri.dropFirst())) }, "\(requests)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/.vodapp/partial/ts.hls"))

        // With a limit only the small variant's expected size fits, that one is chosen.
        let small = try ScratchDirectory()
        let limited = try await deliver([(key: "ts", title: "Transport", url: nginx.url(master))], into: small.path, ["--max-size", "100K"])
        #expect(limited.exitCode == 0, "\(limited.stdout)")
        let path = ScratchDirectory.media(small.path, "ts")
        let video = await MediaFixtures.ffprobeStream(path, "video")
        #expect(video?.width == 96, "\(String(describing: video))")
        await probeStream(path, lastsLike: clip.duration)

        // --max-height: the 96x54 variant, though the 160x90 one fits.
        let capped = try ScratchDirectory()
        let short = try await deliver([(key: "ts", title: "Transport", url: nginx.url(master))], into: capped.path, ["--max-height", "60"])
        #expect(short.exitCode == 0, "\(short.stdout) \(short.stderr)")
        let picture = await MediaFixtures.ffprobeStream(ScratchDirectory.media(capped.path, "ts"), "video")
        #expect(picture?.width == 96, "\(String(describing: picture))")
        #expect((short.item("ts")?["variant"] as? [String: Any])?["resolution"] as? String == "96x54", "\(short.stdout)")
    }

    /// A master playlist over `ts`'s two variants whose 160x90 one (about 270 kB for 3 s) says
    /// 100 kb/s: 37.5 kB, under a 100 KiB limit it passes as it arrives. Its path, for `url`.
    private func lyingMaster(of ts: HLSFixture) throws -> String {
        let lying = ts.directory + "/lying.m3u8"
        try """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=100000,RESOLUTION=160x90
            v0/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=50000,RESOLUTION=96x54
            v1/index.m3u8

            """.write(toFile: ts.absolute(lying), atomically: true, encoding: .utf8)
        return lying
    }

    /// A variant larger than its BANDWIDTH says passes `--max-size` as it arrives: the next one
    /// down is fetched in the same delivery, not the item dropped as too large.
    @Test func aVariantLargerThanItSaysGivesWayToTheNextOneDown() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        let lying = try lyingMaster(of: ts)
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "ts", title: "Transport", url: nginx.url(lying))], into: scratch.path, ["--max-size", "100K"])
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        let path = ScratchDirectory.media(scratch.path, "ts")
        let video = await MediaFixtures.ffprobeStream(path, "video")
        #expect(video?.width == 96, "\(String(describing: video))")
        await probeStream(path, lastsLike: clip.duration)
        let variant = run.item("ts")?["variant"] as? [String: Any]
        #expect(variant?["resolution"] as? String == "96x54" && variant?["tooLarge"] as? Int == 1, "\(run.stdout)")
    }

    /// A variant whose segment is gone for good (a 404) gives way to the next one down, as a
    /// player switches: the item arrives, and the report says what happened.
    @Test func aVariantWithAMissingSegmentGivesWayToTheNextOneDown() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        try FileManager.default.removeItem(atPath: ts.absolute(ts.variants[0].segments[1]))
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "ts", title: "Transport", url: nginx.url(try #require(ts.master)))], into: scratch.path)
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        let variant = run.item("ts")?["variant"] as? [String: Any]
        #expect(variant?["resolution"] as? String == "96x54" && variant?["failed"] as? Int == 1, "\(run.stdout)")
        await probeStream(ScratchDirectory.media(scratch.path, "ts"), lastsLike: clip.duration)
    }

    /// The variant that passed `--max-size` as it arrived is remembered: when the next one down
    /// could not finish either (a segment failing for now), the next delivery goes straight to
    /// it, resuming its segments, and fetches none of the larger one's again. A higher limit
    /// tries the larger one again.
    @Test func aVariantThatPassedTheLimitIsNotFetchedAgainByTheNextDelivery() async throws {
        let nginx = try await NginxServer(serverDirectives: """
            location ~ /v1/seg2\\.ts$ { if (!-f $document_root/open) { return 503; } }
            """)
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        let lying = try lyingMaster(of: ts)
        let scratch = try ScratchDirectory()
        let payload = PayloadBuilder.json([(key: "ts", title: "Transport", url: nginx.url(lying))])
        let first = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify", "--max-size", "100K", "--budget", "20"],
                                         stdin: payload)
        #expect(first.item("ts")?["status"] as? String == "failed", "\(first.stdout)")
        #expect((first.item("ts")?["variant"] as? [String: Any])?["tooLarge"] as? Int == 1, "\(first.stdout)")
        let before = nginx.requests.count

        try Data().write(to: URL(fileURLWithPath: nginx.root + "/open"))
        let second = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify", "--max-size", "100K"], stdin: payload)
        #expect(second.exitCode == 0, "\(second.stdout) \(second.stderr)")
        let variant = second.item("ts")?["variant"] as? [String: Any]
        #expect(variant?["resolution"] as? String == "96x54" && variant?["knownTooLarge"] as? Int == 1 && variant?["tooLarge"] == nil,
                "\(second.stdout)")
        let asked = nginx.requests.dropFirst(before).map(\.uri)
        #expect(!asked.contains { $0.contains("/v0/") }, "the larger variant again: \(asked)")
        #expect(asked.filter { $0.hasSuffix(".ts") }.count == 1, "only the segment that failed: \(asked)")
        await probeStream(ScratchDirectory.media(scratch.path, "ts"), lastsLike: clip.duration)

        // Under a higher limit, the larger one may fit: it is tried again.
        try FileManager.default.removeItem(atPath: ScratchDirectory.media(scratch.path, "ts"))
        let third = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify", "--max-size", "1M", "--refetch-removed"],
                                         stdin: payload)
        #expect((third.item("ts")?["variant"] as? [String: Any])?["resolution"] as? String == "160x90", "\(third.stdout)")
    }

    /// An HLS item is joined and placed as soon as its last segment is in, like any other item,
    /// not when the slowest item of the playlist ends.
    /// Python's http.server, like Apache on Debian, labels `.ts` files from /etc/mime.types as
    /// Qt's translations, `text/vnd.trolltech.linguist`: an MPEG-TS file and an HLS stream of TS
    /// segments served so still arrive, and play.
    /// A variant whose audio is a separate rendition (Apple's bipbop, TED, broadcasters): the
    /// file has the variant's video and the chosen rendition's sound, the DEFAULT=YES one when
    /// nobody chose, in MPEG-TS and in fMP4 segments alike.
    @Test(arguments: [false, true])
    func aVariantWhoseAudioIsARenditionArrivesWithItsSound(fragmentedMP4: Bool) async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let hls = try await MediaFixtures.hlsAudioRenditions(from: clip, fragmentedMP4: fragmentedMP4)
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "sound", title: "Sound", url: nginx.url(try #require(hls.master)))], into: scratch.path)
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        let path = ScratchDirectory.media(scratch.path, "sound")
        await probeStream(path, lastsLike: clip.duration)
        let audio = await MediaFixtures.ffprobeStream(path, "audio")
        #expect(audio?.sampleRate == 22050, "the German rendition (DEFAULT=YES) is at 22.05 kHz: \(String(describing: audio))")
        // The track says its language, as ISO 639-2 (the rendition's LANGUAGE="de"): it said
        // `und` before (new-user trial).
        #expect(audio?.language == "deu", "\(String(describing: audio))")
        // The report says what was chosen.
        let variant = run.item("sound")?["variant"] as? [String: Any]
        #expect(variant?["resolution"] as? String == "160x90" && variant?["variants"] as? Int == 1, "\(run.stdout)")
        #expect((variant?["audio"] as? [String: Any])?["language"] as? String == "de", "\(run.stdout)")

        // --audio-lang: the first language wanted that a rendition has.
        let english = try ScratchDirectory()
        let chosen = try await deliver([(key: "sound", title: "Sound", url: nginx.url(try #require(hls.master)))], into: english.path,
                                       ["--audio-lang", "fr,en-GB,de"])
        #expect(chosen.exitCode == 0, "\(chosen.stdout) \(chosen.stderr)")
        let englishAudio = await MediaFixtures.ffprobeStream(ScratchDirectory.media(english.path, "sound"), "audio")
        #expect(englishAudio?.sampleRate == 44100, "the English rendition is at 44.1 kHz: \(String(describing: englishAudio))")
        #expect(englishAudio?.language == "eng", "\(String(describing: englishAudio))")
    }

    @Test func mpegTSLabelledAsQtTranslationsStillArrives() async throws {
        let scratch = try ScratchDirectory()
        let root = scratch.child("www")
        let clip = try await MediaFixtures.clip(seconds: 2, root: root)
        let hls = try await MediaFixtures.hlsTS(from: clip)
        // Encrypted segments show no MPEG-TS signature under the label: the new-user trial's
        // AES-128 stream from http.server failed as "a text page", for ever.
        let aes = try await MediaFixtures.hlsAES128(from: clip)
        try await MediaFixtures.run("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-i", clip.absolutePath, "-c", "copy",
                                                         "-f", "mpegts", root + "/clip.ts"])
        let port = try closedPort()
        let server = try await RunningProcess("/usr/bin/python3", ["-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", root],
                                              environment: ProcessInfo.processInfo.environment)
        defer { server.signal(SIGTERM) }
        try await server.wait(for: "http.server") { acceptsConnections(port: port) || !server.isRunning }
        let base = "http://127.0.0.1:\(port)/"
        let head = try await runTool("curl", ["-sI", base + "clip.ts"])
        #expect(head.stdout.lowercased().contains("content-type: text/vnd.trolltech.linguist"), "\(head.stdout)")

        let dir = scratch.child("media")
        let run = try await deliver([(key: "file", title: "File", url: base + "clip.ts"),
                                     (key: "hls", title: "Stream", url: base + (try #require(hls.master))),
                                     (key: "aes", title: "Locked", url: base + aes.variants[0].playlist)], into: dir)
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        // The file as it was served (no remux); the streams made into one MP4 each.
        #expect(ScratchDirectory.media(dir, "file").hasSuffix(".ts"))
        await probe(ScratchDirectory.media(dir, "file"), lastsLike: clip.duration)
        await probeStream(ScratchDirectory.media(dir, "hls"), lastsLike: clip.duration)
        await probeStream(ScratchDirectory.media(dir, "aes"), lastsLike: clip.duration)
    }

    @Test func anHLSItemIsPlacedAsSoonAsItsLastSegmentIsIn() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let slow: Int64 = 3_000_000
        try await withSampleServer { server in
            let payload = scratch.child("payload.json")
            try PayloadBuilder.json([(key: "slow", title: "Slow", url: server.url("/bytes/\(slow).mp4?rate=400000")),
                                     (key: "hls", title: "Stream", url: nginx.url(try #require(ts.master)))])
                .write(to: URL(fileURLWithPath: payload))
            let process = try await RunningProcess(VODAppRunner.executable, [payload, "--dir", dir, "--json", "--no-notify"],
                                                   environment: VODAppRunner.environment())
            try await process.wait(for: "the HLS item's file") {
                FileManager.default.fileExists(atPath: ScratchDirectory.media(dir, "hls"))
            }
            #expect(process.isRunning)
            #expect(!FileManager.default.fileExists(atPath: ScratchDirectory.media(dir, "slow")))
            await probeStream(ScratchDirectory.media(dir, "hls"), lastsLike: clip.duration)
            #expect(try await process.exitStatus() == 0, "\(process.stdout) \(process.stderr)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "slow"), count: slow))
            let report = process.jsonLines.first
            let items = report?["items"] as? [[String: Any]] ?? []
            #expect(items.first { $0["key"] as? String == "hls" }?["status"] as? String == "downloaded", "\(process.stdout)")
        }
    }

    /// An HLS item the budget cut, or a segment's passing failure stopped, with segments kept is
    /// partial, as a cut body is: `status` listed it under "Failed" (new-user trial). The next
    /// delivery fetches only the rest.
    @Test(arguments: [
        // The second segment crawls, or answers 503, until the file `open` is there. The 503s'
        // six attempts (jittered backoff, at most about 8 s) end well within 20 s.
        ("set $limit_rate 1k;", "4", "timedOut", " of 3 HLS segments; they are kept for the next delivery"),
        ("return 503;", "20", "failed", "segment 2 of 3 failed: the server answered HTTP 503"),
    ])
    func anHLSItemStoppedWithSegmentsKeptIsPartialAndResumes(until: String, budget: String, status: String, error: String) async throws {
        let nginx = try await NginxServer(serverDirectives: """
            location ~ /seg1\\.ts$ { if (!-f $document_root/open) { \(until) } }
            """)
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let payload = PayloadBuilder.json([(key: "hls", title: "Stream", url: nginx.url(try #require(ts.master)))])
        let cut = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--budget", budget], stdin: payload)
        #expect(cut.exitCode == 75, "\(cut.stdout) \(cut.stderr)")
        #expect(cut.item("hls")?["status"] as? String == status, "\(cut.stdout)")
        #expect((cut.item("hls")?["error"] as? String)?.hasSuffix(error) == true, "\(cut.stdout)")

        let shown = try await runner.run(["status", "--dir", dir, "--json"])
        let items = shown.report?["items"] as? [[String: Any]] ?? []
        #expect(items.first?["state"] as? String == "partial", "\(shown.stdout)")
        let text = try await runner.run(["status", "--dir", dir])
        #expect(text.stdout.contains("Partial"), "\(text.stdout)")
        // What is kept is the segments' bytes, resumed whole (it read "0 B kept, no validator:
        // starts over": new-user trial).
        #expect(text.stdout.contains(" kept, stream segments, whole or cut: the next delivery fetches the rest"), "\(text.stdout)")
        #expect((items.first?["bytes"] as? Int ?? 0) > 0, "\(shown.stdout)")

        let before = try await nginx.waitForRequests { $0.contains { $0.uri.hasSuffix("/seg0.ts") } }
        let whole = Set(before.filter { $0.uri.hasSuffix(".ts") && !$0.uri.hasSuffix("/seg1.ts") && $0.status == 200 }.map(\.uri))
        #expect(!whole.isEmpty, "\(before)")
        try Data().write(to: URL(fileURLWithPath: nginx.root + "/open"))
        let resumed = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
        #expect(resumed.exitCode == 0, "\(resumed.stdout) \(resumed.stderr)")
        await probeStream(ScratchDirectory.media(dir, "hls"), lastsLike: clip.duration)
        let fetchedAgain = nginx.requests.dropFirst(before.count).filter { whole.contains($0.uri) }
        #expect(fetchedAgain.isEmpty, "\(fetchedAgain)")
    }

    /// On a link so slow that no segment arrives within one delivery's budget, each delivery
    /// keeps what it got of the segments it was fetching and the next asks for the rest
    /// (`Range` with `If-Range`): the stream arrives after a few. Fetched again whole each time,
    /// it never would (new-user trial: 18 of 33 segments, however many deliveries).
    @Test func segmentsLongerThanABudgetArriveOverSeveralDeliveries() async throws {
        let nginx = try await NginxServer(serverDirectives: """
            location ~ \\.ts$ { limit_rate 16k; }
            """)
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        let variant = ts.variants[0]
        let sizes = variant.segments.compactMap { try? FileManager.default.attributesOfItem(atPath: ts.absolute($0))[.size] as? Int }
        // Each takes longer at 16 kB/s than the 2.x s a 3 s budget leaves to transfers.
        #expect(sizes.count == 3 && sizes.allSatisfy { $0 > 48_000 }, "\(sizes)")
        let scratch = try ScratchDirectory()
        let payload = PayloadBuilder.json([(key: "slow", title: "Slow", url: nginx.url(variant.playlist))])
        // Two or three on a quiet machine; a loaded one gets less of each budget, so more.
        var runs: [VODAppRunner.Run] = []
        for _ in 0..<20 {
            let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify", "--budget", "3"], stdin: payload)
            runs.append(run)
            if run.exitCode != 75 { break }
            // Cut with no segment whole, it kept what it got of them: partial, not failed, so a
            // listener goes on at once instead of waiting out a failure's backoff (new-user trial).
            let error = run.item("slow")?["error"] as? String ?? ""
            if error.contains(" with 0 of ") {
                #expect(error.hasSuffix(" of the segments it was fetching are kept for the next delivery"), "\(error)")
                let shown = try await runner.run(["status", "--dir", scratch.path, "--json"])
                let items = shown.report?["items"] as? [[String: Any]] ?? []
                #expect(items.first?["state"] as? String == "partial", "\(shown.stdout)")
            }
        }
        #expect(runs.last?.exitCode == 0, "\(runs.map(\.stdout))")
        #expect(runs.count >= 2, "the first delivery was not cut: \(runs.map(\.stdout))")
        await probeStream(ScratchDirectory.media(scratch.path, "slow"), lastsLike: clip.duration)
        // The later deliveries asked for the rest of what they had, and got it.
        let resumed = nginx.requests.filter { $0.uri.hasSuffix(".ts") && $0.range != nil && $0.status == 206 }
        #expect(!resumed.isEmpty, "\(nginx.requests)")
        #expect(ScratchDirectory.allEntries(scratch.path + "/.vodapp/partial").isEmpty)
    }

    /// Clips spliced with `#EXT-X-DISCONTINUITY` (timestamps starting again; in fMP4 a new init
    /// section too) become one timeline: joined as they were, ffprobe read a fraction of the
    /// length, and fMP4 put a second `moov` mid-file.
    @Test(arguments: [false, true])
    func splicedClipsPlayAsOneTimeline(fragmentedMP4: Bool) async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let first = try await MediaFixtures.clip(seconds: 3, root: nginx.root, name: "first.mp4")
        let second = try await MediaFixtures.clip(seconds: 2, root: nginx.root, name: "second.mp4")
        let third = try await MediaFixtures.clip(seconds: 2, root: nginx.root, name: "third.mp4")
        let spliced = try await MediaFixtures.hlsSpliced([first, second, third], fragmentedMP4: fragmentedMP4)
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "spliced", title: "Spliced", url: nginx.url(spliced.variants[0].playlist))], into: scratch.path)
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        let path = ScratchDirectory.media(scratch.path, "spliced")
        await probeStream(path, lastsLike: spliced.sourceDuration)
        #expect(MediaFixtures.topLevelBoxes(path).filter { $0 == "moov" }.count == 1)
    }

    /// A stream kept in one file, each segment a byte range of it (`#EXT-X-BYTERANGE`; in fMP4 the
    /// init section a range too): every part is asked for with `Range` and comes as a 206 of
    /// exactly its bytes, and the parts make one file with sound. Refused before ("vodapp does not
    /// download byte-range segments yet").
    @Test(arguments: [false, true])
    func aSingleFileStreamIsFetchedByByteRanges(fragmentedMP4: Bool) async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let single = try await MediaFixtures.hlsSingleFile(from: clip, fragmentedMP4: fragmentedMP4)
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "single", title: "Single", url: nginx.url(single.variants[0].playlist))], into: scratch.path)
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        await probeStream(ScratchDirectory.media(scratch.path, "single"), lastsLike: single.sourceDuration)
        let file = single.directory + (fragmentedMP4 ? "/all.m4s" : "/all.ts")
        let parts = nginx.requests.filter { $0.uri.hasSuffix(file) }
        #expect(parts.count == (fragmentedMP4 ? 4 : 3), "\(parts)")
        #expect(parts.allSatisfy { $0.status == 206 && $0.range != nil }, "\(parts)")
        // Each byte of the file once, no more.
        let size = try FileManager.default.attributesOfItem(atPath: nginx.root + "/" + file)[.size] as? Int
        #expect(parts.reduce(0) { $0 + $1.bodyBytes } == size)
    }

    /// A fragment whose `trun` claims 60 million samples in 4 KB, behind a real init section:
    /// refused before libavformat indexes them, for good, saying why. It took 2 GB and overran the
    /// budget before (seventh attacker trial, F4).
    @Test func aFragmentClaimingMillionsOfSamplesIsRefusedBeforeItIsIndexed() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let fmp4 = try await MediaFixtures.hlsFMP4(from: clip)
        let variant = fmp4.variants[0]
        func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be(UInt32(8 + body.count)) + Array(type.utf8) + body }
        // tfhd: track 1, base-is-moof, a default duration and size; trun: a data offset only.
        let traf = box("tfhd", [0, 0x02, 0, 0x18] + be(1) + be(512) + be(1)) + box("tfdt", [0, 0, 0, 0] + be(0))
            + box("trun", [0, 0, 0, 1] + be(60_000_000) + be(0))
        let evil = box("moof", box("mfhd", [0, 0, 0, 0] + be(2)) + box("traf", traf)) + box("mdat", Array(repeating: 0, count: 4096))
        try Data(evil).write(to: URL(fileURLWithPath: fmp4.absolute(variant.segments[1])))
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "evil", title: "Evil", url: nginx.url(variant.playlist))], into: scratch.path)
        let item = try #require(run.item("evil"))
        #expect(item["status"] as? String == "failed", "\(run.stdout)")
        #expect(item["final"] as? Bool == true)
        #expect((item["error"] as? String)?.contains("claims 60000000 samples in \(evil.count) bytes, more than media can hold") == true,
                "\(run.stdout)")
        #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
    }

    /// What FFmpeg says of a stream goes to the debug log, where `-v` shows it: a segment cut
    /// short is still muxed (a player skips a corrupt packet too), and FFmpeg's own line about
    /// it, whole though FFmpeg writes it in two pieces, says where.
    @Test func ffmpegsOwnLinesAreInTheDebugLog() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        let variant = ts.variants[0]
        let segment = ts.absolute(variant.segments[1])
        let bytes = try #require(FileManager.default.contents(atPath: segment))
        try bytes.prefix(bytes.count / 2 + 1).write(to: URL(fileURLWithPath: segment))
        let scratch = try ScratchDirectory()
        let quiet = try await deliver([(key: "cut", title: "Cut", url: nginx.url(variant.playlist))], into: scratch.path)
        #expect(!quiet.stderr.contains("libavformat"), "\(quiet.stderr)")
        // Held to the end: a scratch folder let go at once is removed before vodapp makes it
        // again, and nothing removes that one.
        let verboseScratch = try ScratchDirectory()
        let verbose = try await deliver([(key: "cut", title: "Cut", url: nginx.url(variant.playlist))], into: verboseScratch.path, ["-v"])
        let lines = verbose.stderr.split(separator: "\n").filter { $0.contains("[libavformat]") }
        #expect(lines.contains { $0.contains("[mpegts @ ") && $0.hasSuffix(").") }, "\(verbose.stderr)")
    }

    /// A clip encoded otherwise after a discontinuity (another picture size, another sample
    /// rate) is refused with what changed, not placed as a file that breaks up or plays at the
    /// wrong pitch past the change. MPEG-TS carries its picture's parameters in band, so only its
    /// sound is the change there.
    @Test(arguments: [false, true])
    func aClipEncodedOtherwiseAfterADiscontinuityIsRefusedSayingWhatChanges(fragmentedMP4: Bool) async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let first = try await MediaFixtures.clip(seconds: 2, root: nginx.root, name: "first.mp4")
        let other = try await MediaFixtures.clip(seconds: 2, root: nginx.root, name: "other.mp4", size: "320x180", sampleRate: 22050)
        let spliced = try await MediaFixtures.hlsSpliced([first, other], fragmentedMP4: fragmentedMP4)
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "spliced", title: "Spliced", url: nginx.url(spliced.variants[0].playlist))], into: scratch.path)
        let item = try #require(run.item("spliced"))
        #expect(item["status"] as? String == "failed", "\(run.stdout)")
        let change = fragmentedMP4 ? "picture from 160x90 to 320x180" : "audio from 44100 Hz, 1 channel to 22050 Hz, 1 channel"
        #expect(item["error"] as? String == "its HLS segments do not make a file: part 2 of 2 of the stream changes its \(change) "
                + "after a discontinuity, which one file cannot hold", "\(run.stdout)")
        #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
    }

    @Test(arguments: [MediaFixtures.AESIV.explicitFromFFmpeg, .mediaSequenceNumber])
    func anAES128HLSIsDecrypted(iv: MediaFixtures.AESIV) async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let aes = try await MediaFixtures.hlsAES128(from: clip, iv: iv)
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "aes", title: "Locked", url: nginx.url(aes.variants[0].playlist))], into: scratch.path)
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        let path = ScratchDirectory.media(scratch.path, "aes")
        #expect(path.hasSuffix("Locked [aes].mp4"))
        await probeStream(path, lastsLike: clip.duration)
    }

    /// A key's answer is judged by its status before its size: nginx's 404 page is longer than any
    /// key, and must read as the 404 it is (final), not as a key too large (temporary).
    @Test func aKeyThatIsNotThereFailsForGoodWithItsStatus() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let aes = try await MediaFixtures.hlsAES128(from: clip, keyURI: "missing.bin", iv: .explicitFromFFmpeg)
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "aes", title: "Locked", url: nginx.url(aes.variants[0].playlist))], into: scratch.path)
        #expect(run.exitCode == 69, "\(run.stdout) \(run.stderr)")
        #expect(run.item("aes")?["error"] as? String == "the key failed: the server answered HTTP 404", "\(run.stdout)")
        #expect(run.item("aes")?["final"] as? Bool == true)
        #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
    }

    /// fMP4 fragments listed without their `#EXT-X-MAP` would be joined into a file no player
    /// reads: the item fails for good, saying why, and nothing is placed.
    @Test func fragmentsWithoutTheirInitSectionAreNotJoinedIntoABrokenFile() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let fmp4 = try await MediaFixtures.hlsFMP4(from: clip)
        let playlist = nginx.root + "/" + fmp4.variants[0].playlist
        let text = try String(contentsOfFile: playlist, encoding: .utf8)
        try text.split(separator: "\n").filter { !$0.hasPrefix("#EXT-X-MAP") }.joined(separator: "\n")
            .appending("\n").write(toFile: playlist, atomically: true, encoding: .utf8)
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "nomap", title: "No map", url: nginx.url(fmp4.variants[0].playlist))], into: scratch.path)
        #expect(run.exitCode == 69, "\(run.stdout)")
        #expect((run.item("nomap")?["error"] as? String)?.contains("no init section (#EXT-X-MAP)") == true, "\(run.stdout)")
        #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
    }

    /// A live DASH manifest fails likewise: `DASHMediaTests`.
    @Test func aLivePlaylistFailsWithItsReason() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let live = try await MediaFixtures.hlsLive(from: clip)
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "live", title: "Live", url: nginx.url(live.variants[0].playlist))], into: scratch.path)
        #expect(run.exitCode == 69, "\(run.stdout)")
        #expect(run.item("live")?["status"] as? String == "failed")
        #expect((run.item("live")?["error"] as? String)?.contains("live") == true, "\(run.stdout)")
        #expect(run.item("live")?["final"] as? Bool == true)
        #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
    }

    @Test func pagesEmptyBodiesAndNoContentAreNotMediaAndAreFetchedAgain() async throws {
        let nginx = try await NginxServer(serverDirectives: """
            location = /nothing.mp4 { return 204; }
            location = /portal.mp4 { default_type application/octet-stream; return 200 '<!DOCTYPE html><html><body>Sign in to the Wi-Fi</body></html>'; }
            """)
        defer { nginx.stop() }
        try "<html><head><title>Log in</title></head><body><form>…</form></body></html>\n".write(toFile: nginx.root + "/login.html", atomically: true, encoding: .utf8)
        try #"{"error": "token expired"}"#.write(toFile: nginx.root + "/error.json", atomically: true, encoding: .utf8)
        try Data().write(to: URL(fileURLWithPath: nginx.root + "/empty.mp4"))
        let items = [(key: "html", title: "Login wall", url: nginx.url("login.html")),
                     (key: "json", title: "API", url: nginx.url("error.json")),
                     (key: "empty", title: "Empty", url: nginx.url("empty.mp4")),
                     (key: "none", title: "No content", url: nginx.url("nothing.mp4")),
                     (key: "portal", title: "Portal", url: nginx.url("portal.mp4"))]
        let scratch = try ScratchDirectory()
        let first = try await deliver(items, into: scratch.path)
        #expect(first.exitCode == 75, "\(first.stdout)")
        let reasons = ["html": "HTML page", "json": "JSON", "empty": "empty body", "none": "204", "portal": "HTML page"]
        for (key, reason) in reasons {
            #expect(first.item(key)?["status"] as? String == "failed", "\(key)")
            #expect((first.item(key)?["error"] as? String)?.contains(reason) == true, "\(key): \(String(describing: first.item(key)))")
            #expect(first.item(key)?["final"] as? Bool == false)
        }
        #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
        #expect(ScratchDirectory.allEntries(scratch.path + "/.vodapp/partial").isEmpty)

        let second = try await deliver(items, into: scratch.path)
        #expect(second.exitCode == 75)
        let requests = try await nginx.waitForRequests { $0.count >= 10 }
        for item in items {
            let path = "/" + item.url.split(separator: "/").last!
            #expect(requests.filter { $0.uri == path }.count == 2, "\(path) is fetched again: \(requests)")
        }
    }

    @Test func aCutTransferResumesAfterTheTokenChangesButNotAfterThePathDoes() async throws {
        let nginx = try await NginxServer(serverDirectives: """
            location /slow/ { limit_rate 150k; }
            """)
        defer { nginx.stop() }
        let bytes = (0..<1_200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try FileManager.default.createDirectory(atPath: nginx.root + "/slow", withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: nginx.root + "/slow/movie.mp4"))
        try Data(bytes).write(to: URL(fileURLWithPath: nginx.root + "/slow/moved.mp4"))
        let scratch = try ScratchDirectory()
        let dir = scratch.path

        let cut = try await deliver([(key: "m", title: "Movie", url: nginx.url("slow/movie.mp4?token=AAA"))], into: dir, ["--budget", "4"])
        #expect(cut.exitCode == 75)
        #expect(cut.item("m")?["status"] as? String == "timedOut")
        let kept = try FileManager.default.attributesOfItem(atPath: dir + "/.vodapp/partial/m.part")[.size] as? Int ?? 0
        #expect(kept > 0)

        let resumed = try await deliver([(key: "m", title: "Movie", url: nginx.url("slow/movie.mp4?token=BBB"))], into: dir)
        #expect(resumed.exitCode == 0, "\(resumed.stdout)")
        #expect(ScratchDirectory.contents(ScratchDirectory.media(dir, "m")) == bytes)
        let requests = try await nginx.waitForRequests { $0.contains { $0.uri.hasSuffix("token=BBB") } }
        let second = try #require(requests.last { $0.uri.hasSuffix("token=BBB") })
        #expect(second.range == "bytes=\(kept)-", "\(requests)")
        #expect(second.ifRange != nil)
        #expect(second.status == 206)
        #expect(second.bodyBytes == bytes.count - kept)

        // Another path is another file: its kept bytes are not spliced onto it. (The file is
        // deleted to fetch it again, which vodapp then does only when asked.)
        try FileManager.default.removeItem(atPath: ScratchDirectory.media(dir, "m"))
        _ = try await deliver([(key: "m", title: "Movie", url: nginx.url("slow/movie.mp4?token=CCC"))], into: dir,
                              ["--budget", "4", "--refetch-removed"])
        let moved = try await deliver([(key: "m", title: "Movie", url: nginx.url("slow/moved.mp4?token=CCC"))], into: dir,
                                      ["--refetch-removed"])
        #expect(moved.exitCode == 0, "\(moved.stdout)")
        let all = try await nginx.waitForRequests { $0.contains { $0.uri.hasPrefix("/slow/moved.mp4") } }
        #expect(all.last { $0.uri.hasPrefix("/slow/moved.mp4") }?.range == nil, "\(all)")
        #expect(ScratchDirectory.contents(ScratchDirectory.media(dir, "m")) == bytes)
    }

    /// A login page answering the resume of a cut video (a session that expired between pushes)
    /// is not the video: the bytes kept stay, and the next delivery with the session resumes.
    /// nginx made to answer 206 where it must not: to a request that asked for no range, and to a
    /// resume with a Content-Range that starts at 0. Neither becomes a file.
    @Test func nginxsLying206sAreNeverPlaced() async throws {
        let nginx = try await NginxServer(serverDirectives: """
            location /ranges/ {
                limit_rate 150k;
                if ($arg_mode = always206) { add_header Content-Range "bytes 0-9/10" always; return 206 "0123456789"; }
                if ($http_range) { add_header Content-Range "bytes 0-9/1200000" always; return 206 "0123456789"; }
            }
            """)
        defer { nginx.stop() }
        let bytes = (0..<1_200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try FileManager.default.createDirectory(atPath: nginx.root + "/ranges", withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: nginx.root + "/ranges/movie.mp4"))
        let scratch = try ScratchDirectory()
        let dir = scratch.path

        let unasked = try await deliver([(key: "whole", title: "Whole", url: nginx.url("ranges/movie.mp4?mode=always206"))], into: dir)
        #expect((unasked.item("whole")?["error"] as? String)?.contains("206 Partial Content to a request for the whole file") == true,
                "\(unasked.stdout)")

        let item = [(key: "m", title: "Movie", url: nginx.url("ranges/movie.mp4"))]
        let cut = try await deliver(item, into: dir, ["--budget", "4"])
        #expect(cut.item("m")?["status"] as? String == "timedOut", "\(cut.stdout)")
        let lied = try await deliver(item, into: dir)
        #expect(lied.exitCode == 75, "\(lied.stdout)")
        #expect((lied.item("m")?["error"] as? String)?.contains("the server resumed at byte 0, not") == true, "\(lied.stdout)")
        #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir + "/.vodapp/partial/m.part"))
        let requests = try await nginx.waitForRequests { $0.count >= 3 }
        #expect(requests.last?.range?.hasPrefix("bytes=") == true, "\(requests)")
    }

    @Test func aLoginPageAnsweringAResumeKeepsTheBytesAlreadyKept() async throws {
        let nginx = try await NginxServer(serverDirectives: """
            location /wall/ {
                if ($http_user_agent ~ logged-out) { return 200 '<!DOCTYPE html><html><body>Sign in</body></html>'; }
                if ($http_user_agent ~ expired) { return 403; }
                limit_rate 150k;
            }
            """)
        defer { nginx.stop() }
        let bytes = (0..<1_200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try FileManager.default.createDirectory(atPath: nginx.root + "/wall", withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: nginx.root + "/wall/movie.mp4"))
        let scratch = try ScratchDirectory()
        let dir = scratch.path
        let item = [(key: "m", title: "Movie", url: nginx.url("wall/movie.mp4"))]

        let cut = try await deliver(item, into: dir, ["--budget", "4"])
        #expect(cut.item("m")?["status"] as? String == "timedOut", "\(cut.stdout)")
        let kept = try FileManager.default.attributesOfItem(atPath: dir + "/.vodapp/partial/m.part")[.size] as? Int ?? 0
        #expect(kept > 0)

        let walled = try await deliver(item, into: dir, ["--user-agent", "logged-out"])
        #expect(walled.exitCode == 75)
        #expect((walled.item("m")?["error"] as? String)?.contains("HTML page") == true, "\(walled.stdout)")
        #expect(try FileManager.default.attributesOfItem(atPath: dir + "/.vodapp/partial/m.part")[.size] as? Int == kept)

        // A 403 on the resume is final, and status says so beside the bytes it keeps.
        let expired = try await deliver(item, into: dir, ["--user-agent", "expired"])
        #expect(expired.exitCode == 69, "\(expired.stdout)")
        let status = try await runner.run(["status", "--dir", dir, "--json"])
        let stored = (status.report?["items"] as? [[String: Any]])?.first
        #expect(stored?["state"] as? String == "partial" && stored?["final"] as? Bool == true, "\(status.stdout)")
        let human = try await runner.run(["status", "--dir", dir])
        #expect(human.stdout.contains("resumable; the last attempt failed for good: the server answered HTTP 403"), "\(human.stdout)")

        let resumed = try await deliver(item, into: dir)
        #expect(resumed.exitCode == 0, "\(resumed.stdout)")
        #expect(ScratchDirectory.contents(ScratchDirectory.media(dir, "m")) == bytes)
        let requests = try await nginx.waitForRequests { $0.count >= 4 }
        #expect(requests.last?.range == "bytes=\(kept)-", "\(requests)")
    }

    /// A video behind `watch.php` served as `application/octet-stream` is named by its bytes:
    /// `.mp4`, never `.php`.
    @Test func aVideoAVagueServerLabelsIsNamedByItsBytes() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        _ = try await MediaFixtures.clip(seconds: 1, root: nginx.root, name: "w.mp4")
        try FileManager.default.copyItem(atPath: nginx.root + "/w.mp4", toPath: nginx.root + "/watch.php")
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "php", title: "Watch", url: nginx.url("watch.php?id=3"))], into: scratch.path)
        #expect(run.exitCode == 0, "\(run.stdout)")
        #expect(ScratchDirectory.visibleMedia(scratch.path) == ["Watch [php].mp4"])
    }

    @Test func anIDNHostAndARawSpaceInThePathArrive() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 1, root: nginx.root, name: "my clip.mp4")
        let scratch = try ScratchDirectory()
        // libcurl resolves every *.localhost name to loopback itself, as RFC 6761 allows.
        let run = try await deliver([(key: "idn", title: "Bücher", url: "http://bücher.localhost:\(nginx.port)/my%20clip.mp4"),
                                     (key: "space", title: "Space", url: " \(nginx.baseURL)/my clip.mp4 ")], into: scratch.path)
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        let source = ScratchDirectory.contents(clip.absolutePath)
        #expect(ScratchDirectory.contents(ScratchDirectory.media(scratch.path, "idn")) == source)
        #expect(ScratchDirectory.contents(ScratchDirectory.media(scratch.path, "space")) == source)
        #expect(run.item("idn")?["url"] as? String == "http://xn--bcher-kva.localhost:\(nginx.port)/my%20clip.mp4")
    }

    /// What an HLS playlist names on another host gets none of the user's headers or cookies:
    /// they belong to the item's URL in the payload, not to whatever its playlist points at.
    @Test func anHLSPlaylistCannotLeadHeadersOrCookiesToAnotherHost() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let clip = try await MediaFixtures.clip(seconds: 3, root: nginx.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        let segments = ts.variants[0].segments
        // Every other segment on "localhost": the same server, another origin.
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for (index, segment) in segments.enumerated() {
            let url = nginx.url(segment)
            lines += ["#EXTINF:1.0,", index % 2 == 0 ? url : url.replacingOccurrences(of: "127.0.0.1", with: "localhost")]
        }
        try (lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n").write(toFile: nginx.root + "/cross.m3u8", atomically: true, encoding: .utf8)
        let scratch = try ScratchDirectory()
        let cookies = scratch.child("cookies.txt")
        try "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tcookie-secret\nlocalhost\tFALSE\t/\tFALSE\t0\tsession\tcookie-secret\n"
            .write(toFile: cookies, atomically: true, encoding: .utf8)
        let run = try await deliver([(key: "cross", title: "Cross", url: nginx.url("cross.m3u8"))], into: scratch.child("media"),
                                    ["--header", "X-Vodapp-Test: open-sesame", "--cookies", cookies])
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")

        let requests = try await nginx.waitForRequests { $0.count >= segments.count + 1 }
        for (index, segment) in segments.enumerated() {
            let request = try #require(requests.first { $0.uri == "/" + segment })
            if index % 2 == 0 {
                #expect(request.testHeader == "open-sesame" && request.cookie == "session=cookie-secret", "\(request)")
            } else {
                #expect(request.testHeader == nil && request.cookie == nil, "\(segment) went to another host with credentials: \(request)")
            }
        }
    }

    /// A payload names its own URLs: `--header-host` keeps `--header` for the hosts the user
    /// meant, and `listen`, whose pushes may come from anyone, will not run without it.
    @Test func headerHostKeepsHeadersForTheHostsNamedAndListenRequiresIt() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        _ = try await MediaFixtures.clip(seconds: 1, root: nginx.root, name: "mine.mp4")
        _ = try await MediaFixtures.clip(seconds: 1, root: nginx.root, name: "theirs.mp4")
        let scratch = try ScratchDirectory()
        let theirs = nginx.url("theirs.mp4").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let run = try await deliver([(key: "mine", title: "Mine", url: nginx.url("mine.mp4")), (key: "theirs", title: "Theirs", url: theirs)],
                                    into: scratch.child("media"), ["--header", "X-Vodapp-Test: open-sesame", "--header-host", "http://127.0.0.1:\(nginx.port)"])
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        let requests = try await nginx.waitForRequests { $0.count >= 2 }
        #expect(requests.first { $0.uri == "/mine.mp4" }?.testHeader == "open-sesame", "\(requests)")
        #expect(requests.first { $0.uri == "/theirs.mp4" }.map { $0.testHeader == nil } == true, "\(requests)")
        // An origin is scheme, host and port: the same host's plain http, or another port, is not it.
        for (index, scope) in ["127.0.0.1", "http://127.0.0.1:\(nginx.port + 1)", "https://127.0.0.1:\(nginx.port)"].enumerated() {
            let other = try await deliver([(key: "mine", title: "Mine", url: nginx.url("mine.mp4?scope=\(index)"))],
                                          into: scratch.child("other-\(index)"), ["--header", "X-Vodapp-Test: open-sesame", "--header-host", scope])
            #expect(other.exitCode == 0, "\(scope): \(other.stderr)")
            let sent = try await nginx.waitForRequests { $0.contains { $0.uri == "/mine.mp4?scope=\(index)" } }
            #expect(sent.last { $0.uri == "/mine.mp4?scope=\(index)" }?.testHeader == nil, "\(scope)")
        }

        let listen = try await runner.run(["listen", "--dir", scratch.child("listen"), "--header", "X-Vodapp-Test: open-sesame"])
        #expect(listen.exitCode == 64)
        #expect(listen.stderr.contains("--header needs --header-host"), "\(listen.stderr)")
        #expect(!listen.stderr.contains("open-sesame"))
        // Whatever shape a bad header has, its secret is not in the error.
        for line in [": open-sesame", "Authorization Bearer open-sesame:x", "X-Key=open-sesame:more", "open-sesame"] {
            let bad = try await runner.run(["-", "--header", line], stdin: Data())
            #expect(bad.exitCode == 64)
            #expect(!bad.stderr.contains("open-sesame"), "\(bad.stderr)")
        }
    }

    /// Credentials held back on purpose are said so when the other host refuses: otherwise its
    /// 403 reads like a wrong token.
    @Test func aRefusalWhereCredentialsWereHeldBackSaysSo() async throws {
        let nginx = try await NginxServer(serverDirectives: """
            location = /private.mp4 { if ($http_x_vodapp_test != "open-sesame") { return 403; } }
            location = /away.mp4 { return 302 http://localhost:$server_port/private.mp4; }
            """)
        defer { nginx.stop() }
        _ = try await MediaFixtures.clip(seconds: 1, root: nginx.root, name: "private.mp4")
        let scratch = try ScratchDirectory()
        let run = try await deliver([(key: "away", title: "Away", url: nginx.url("away.mp4"))], into: scratch.path,
                                    ["--header", "X-Vodapp-Test: open-sesame"])
        #expect(run.exitCode == 69, "\(run.stdout)")
        #expect((run.item("away")?["error"] as? String)?.hasPrefix("the server answered HTTP 403 (--header and --cookies go to http://127.0.0.1:") == true,
                "\(run.stdout)")
        #expect(!run.stdout.contains("open-sesame"))
    }

    @Test func headersAndCookiesGoToTheItemsOriginOnlyAndAreNeverShown() async throws {
        let nginx = try await NginxServer(serverDirectives: """
            location = /private.mp4 {
                if ($http_x_vodapp_test != "open-sesame") { return 403; }
                if ($cookie_session != "cookie-secret") { return 403; }
            }
            location = /away.mp4 { return 302 http://localhost:$server_port/public.mp4; }
            """)
        defer { nginx.stop() }
        _ = try await MediaFixtures.clip(seconds: 1, root: nginx.root, name: "private.mp4")
        _ = try await MediaFixtures.clip(seconds: 1, root: nginx.root, name: "public.mp4")
        let scratch = try ScratchDirectory()
        let cookies = scratch.child("cookies.txt")
        // A cookie for the other host too: libcurl alone would send it after the redirect.
        try "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tcookie-secret\nlocalhost\tFALSE\t/\tFALSE\t0\tsession\tcookie-secret\n"
            .write(toFile: cookies, atomically: true, encoding: .utf8)
        let dir = scratch.child("media")
        let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--verbose",
                                        "--header", "X-Vodapp-Test: open-sesame", "--cookies", cookies, "--user-agent", "VODAppTest/1"],
                                       stdin: PayloadBuilder.json([(key: "private", title: "Private", url: nginx.url("private.mp4")),
                                                                   (key: "away", title: "Away", url: nginx.url("away.mp4"))]))
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.item("private")?["status"] as? String == "downloaded")
        #expect(run.item("away")?["status"] as? String == "downloaded")

        let requests = try await nginx.waitForRequests { $0.count >= 3 }
        let origin = requests.filter { $0.uri == "/private.mp4" || $0.uri == "/away.mp4" }
        #expect(origin.count == 2 && origin.allSatisfy { $0.testHeader == "open-sesame" && $0.cookie == "session=cookie-secret" }, "\(requests)")
        let elsewhere = try #require(requests.first { $0.uri == "/public.mp4" })
        #expect(elsewhere.testHeader == nil && elsewhere.cookie == nil, "\(elsewhere)")
        #expect(requests.allSatisfy { $0.userAgent == "VODAppTest/1" })

        // Never in what vodapp prints or keeps.
        var kept = run.stdout + run.stderr
        for name in ScratchDirectory.allEntries(dir + "/.vodapp") where name.hasPrefix("state.sqlite") {
            kept += String(decoding: ScratchDirectory.contents(dir + "/.vodapp/" + name) ?? [], as: UTF8.self)
        }
        #expect(run.stderr.contains("private.mp4"), "the verbose log names the transfers")
        #expect(!kept.contains("open-sesame") && !kept.contains("cookie-secret"))
    }
}
