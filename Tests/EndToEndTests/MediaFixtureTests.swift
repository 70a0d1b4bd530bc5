import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// Proves the fixtures other tests build on: nginx serves what ffmpeg made, byte for byte, and
/// logs what the client sent; the media is what it claims to be.
@Suite struct MediaFixtureTests {
    /// GETs `url` with curl, sending `X-Vodapp-Test: <tag>` and any `extra` arguments; returns
    /// the status and the body.
    private func get(_ url: String, tag: String, _ extra: [String] = []) async throws -> (status: Int, body: [UInt8]) {
        let scratch = try ScratchDirectory("vodapp-curl")
        let body = scratch.child("body")
        let status = try await MediaFixtures.run("/usr/bin/curl", ["-sS", "-o", body, "-w", "%{http_code}",
                                                                   "-H", "X-Vodapp-Test: \(tag)"] + extra + [url])
        return (Int(status) ?? 0, ScratchDirectory.contents(body) ?? [])
    }

    @Test func nginxServesEveryFixtureByteForByteAndLogsTheTestHeader() async throws {
        let server = try await NginxServer()
        defer { server.stop() }
        let clip = try await MediaFixtures.clip(root: server.root)
        let ts = try await MediaFixtures.hlsTS(from: clip)
        let fmp4 = try await MediaFixtures.hlsFMP4(from: clip)
        let aes = try await MediaFixtures.hlsAES128(from: clip)
        let live = try await MediaFixtures.hlsLive(from: clip)
        let dash = try await MediaFixtures.dash(from: clip)
        let paths = [
            clip.path,
            try #require(ts.master), ts.variants[0].playlist, ts.variants[1].segments[2],
            try #require(fmp4.master), try #require(fmp4.variants[0].initSection), fmp4.variants[0].segments[0],
            aes.variants[0].playlist, try #require(aes.keyPath), aes.variants[0].segments[0],
            live.variants[0].playlist, live.variants[0].segments[0],
            dash.manifest, dash.files[0],
        ]
        for path in paths {
            let (status, body) = try await get(server.url(path), tag: path)
            #expect(status == 200, "\(path)")
            #expect(body == ScratchDirectory.contents(clip.root + "/" + path), "\(path)")
        }
        let logged = try await server.waitForRequests { $0.count == paths.count }
        #expect(logged.map(\.testHeader) == paths)
        #expect(logged.map(\.uri) == paths.map { "/" + $0 })
        #expect(logged.allSatisfy { $0.method == "GET" && $0.status == 200 && $0.range == nil })
        #expect(logged.map(\.bodyBytes) == paths.map { ScratchDirectory.contents(clip.root + "/" + $0)?.count ?? -1 })
        #expect(logged.allSatisfy { $0.userAgent?.hasPrefix("curl/") == true })
    }

    @Test func nginxAnswersRangesAndRunsTheTestsOwnLocations() async throws {
        let server = try await NginxServer(serverDirectives: """
                location /private/ {
                    if ($cookie_session != "ok") { return 403; }
                }
                location = /moved { return 302 /private/data.bin; }
        """)
        defer { server.stop() }
        let data: [UInt8] = (0..<1000).map { UInt8($0 % 251) }
        try FileManager.default.createDirectory(atPath: server.root + "/private", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: server.root + "/private/data.bin", contents: Data(data)))

        #expect(try await get(server.url("private/data.bin"), tag: "no cookie").status == 403)
        let ranged = try await get(server.url("/private/data.bin"), tag: "range",
                                   ["-H", "Cookie: session=ok", "-H", "Range: bytes=100-199", "-H", "If-Range: \"nope\"",
                                    "-A", "vodapp-test/1"])
        // An If-Range that does not match the ETag: the whole file, 200, as RFC 9110 says.
        #expect(ranged.status == 200)
        #expect(ranged.body == data)
        let partial = try await get(server.url("/private/data.bin"), tag: "partial", ["-H", "Cookie: session=ok", "-r", "100-199"])
        #expect(partial.status == 206)
        #expect(partial.body == Array(data[100...199]))
        #expect(try await get(server.url("moved"), tag: "redirect").status == 302)

        let logged = try await server.waitForRequests { $0.count == 4 }
        #expect(logged.map(\.status) == [403, 200, 206, 302])
        #expect(logged[0].cookie == nil)
        #expect(logged[1].cookie == "session=ok")
        #expect(logged[1].range == "bytes=100-199")
        #expect(logged[1].ifRange == "\"nope\"")
        #expect(logged[1].userAgent == "vodapp-test/1")
        #expect(logged[2].bodyBytes == 100)
        #expect(logged.map(\.testHeader) == ["no cookie", "range", "partial", "redirect"])
    }

    @Test func aStoppedServerLeavesNoNginxAndItsPortCloses() async throws {
        let server = try await NginxServer()
        let url = server.url("nothing-here")
        #expect(try await get(url, tag: "404").status == 404)
        // The search finds the running server, so that finding nothing below means something.
        #expect(try await nginxProcesses(using: server.configPath).count == 1)
        server.stop()
        server.stop()
        #expect(try await nginxProcesses(using: server.configPath).isEmpty)
        await #expect(throws: (any Error).self) { try await get(url, tag: "after stop") }
    }

    @Test func ffprobeReadsTheClipAndThePlaylistsItWasCutInto() async throws {
        let scratch = try ScratchDirectory("vodapp-media")
        let clip = try await MediaFixtures.clip(seconds: 3, root: scratch.path)
        #expect(clip.duration == 3)
        let duration = try #require(await MediaFixtures.ffprobeDuration(clip.absolutePath))
        #expect(abs(duration - 3) < 0.05)
        let streams = await MediaFixtures.ffprobeStreams(clip.absolutePath)
        #expect(streams.map(\.codecType) == ["video", "audio"])
        #expect(streams.map(\.codecName) == ["h264", "aac"])
        #expect(streams.first?.width == 160 && streams.first?.height == 90)
        #expect(await MediaFixtures.ffprobeDuration(scratch.child("missing.mp4")) == nil)
        #expect(await MediaFixtures.ffprobeStreams(scratch.child("missing.mp4")).isEmpty)

        let ts = try await MediaFixtures.hlsTS(from: clip)
        let fmp4 = try await MediaFixtures.hlsFMP4(from: clip)
        for fixture in [ts, fmp4] {
            #expect(fixture.variants.map(\.segments.count) == [3, 3])
            let (high, low) = (try #require(fixture.variants[0].bandwidth), try #require(fixture.variants[1].bandwidth))
            #expect(high > 4 * low)
            for variant in fixture.variants {
                let probed = try #require(await MediaFixtures.ffprobeDuration(fixture.absolute(variant.playlist)))
                #expect(abs(probed - 3) < 0.1, "\(variant.playlist)")
            }
        }
        #expect(ts.variants.allSatisfy { $0.initSection == nil && $0.segments.allSatisfy { $0.hasSuffix(".ts") } })
        #expect(fmp4.variants.map(\.initSection) == ["hls-fmp4/v0/init_0.mp4", "hls-fmp4/v1/init_1.mp4"])
        #expect(fmp4.variants.allSatisfy { $0.segments.allSatisfy { $0.hasSuffix(".m4s") } })
        let streamsOfLow = await MediaFixtures.ffprobeStreams(fmp4.absolute(fmp4.variants[1].playlist))
        #expect(streamsOfLow.first { $0.codecType == "video" }?.width == 96)
    }

    @Test func encryptedLiveAndDASHFixturesAreWhatTheySay() async throws {
        let scratch = try ScratchDirectory("vodapp-media")
        let clip = try await MediaFixtures.clip(root: scratch.path)

        for iv in [MediaFixtures.AESIV.explicitFromFFmpeg, .mediaSequenceNumber] {
            let aes = try await MediaFixtures.hlsAES128(from: clip, name: "aes-\(iv)", iv: iv)
            let key = try #require(aes.key)
            #expect(ScratchDirectory.contents(aes.absolute(try #require(aes.keyPath))) == key)
            let playlist = try String(contentsOfFile: aes.absolute(aes.variants[0].playlist), encoding: .utf8)
            let variant = aes.variants[0]
            switch iv {
            case .explicitFromFFmpeg:
                #expect(playlist.contains(#"#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x00000000000000000000000000000000"#))
                #expect(variant.mediaSequence == 0)
            case .mediaSequenceNumber:
                #expect(playlist.contains("#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n#EXTINF"))
                #expect(variant.mediaSequence == 5)
            }
            // Each segment decrypts with its IV into MPEG-TS (a 0x47 sync byte every 188 bytes)
            // that ffprobe reads, and is not MPEG-TS before.
            for (index, segment) in variant.segments.enumerated() {
                let sealed = try #require(ScratchDirectory.contents(aes.absolute(segment)))
                #expect(sealed.first != 0x47 || sealed[188] != 0x47)
                let sequence = iv == .explicitFromFFmpeg ? 0 : variant.mediaSequence + index
                let clear = scratch.child("clear-\(iv)-\(index).ts")
                try await MediaFixtures.run("/usr/bin/openssl", [
                    "enc", "-d", "-aes-128-cbc", "-K", key.map { String(format: "%02x", $0) }.joined(),
                    "-iv", String(format: "%032x", sequence), "-in", aes.absolute(segment), "-out", clear])
                let bytes = try #require(ScratchDirectory.contents(clear))
                #expect(bytes.count % 188 == 0 && stride(from: 0, to: bytes.count, by: 188).allSatisfy { bytes[$0] == 0x47 }, "\(segment)")
                #expect(await MediaFixtures.ffprobeStreams(clear).map(\.codecType).contains("video"))
            }
        }

        let live = try await MediaFixtures.hlsLive(from: clip)
        let livePlaylist = try String(contentsOfFile: live.absolute(live.variants[0].playlist), encoding: .utf8)
        #expect(!livePlaylist.contains("#EXT-X-ENDLIST"))
        #expect(!livePlaylist.contains("#EXT-X-PLAYLIST-TYPE"))
        #expect(live.variants[0].segments == ["hls-live/seg1.ts", "hls-live/seg2.ts"])
        #expect(live.variants[0].mediaSequence == 1)

        let dash = try await MediaFixtures.dash(from: clip)
        let manifest = try String(contentsOfFile: dash.root + "/" + dash.manifest, encoding: .utf8)
        #expect(manifest.contains("<MPD") && manifest.contains(#"mediaPresentationDuration="PT3.0S""#))
        #expect(dash.files.count == 8)
        #expect(dash.files.filter { $0.contains("init-stream") }.count == 2)
        #expect(dash.sourceDuration == 3)
    }

    /// nginx processes whose command line names `config`: ours, and no one else's.
    private func nginxProcesses(using config: String) async throws -> [String] {
        let scratch = try ScratchDirectory("vodapp-pgrep")
        let list = scratch.child("list")
        // pgrep exits 1 when nothing matches: run through sh so that is not an error. Anchored
        // at nginx's own path: the watchdog's command line holds nginx's after python3's, and
        // the watchdog may still be exiting when stop() returns (it has reaped nginx by then).
        try await MediaFixtures.run("/bin/sh", ["-c", "pgrep -a -f -- \"$1\" > \"$2\" || true", "pgrep", "^/usr/sbin/nginx -c \(config)", list])
        return ((try? String(contentsOfFile: list, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
