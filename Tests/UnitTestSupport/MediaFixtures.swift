import Foundation

/// Real media for tests, made by ffmpeg (found on PATH) in well under a second each: a tiny clip
/// (160x90 `testsrc2` picture, 440 Hz `sine` sound, H.264/AAC, a key frame every second) and HLS
/// and DASH presentations cut from it into 1-second segments.
///
/// Fixtures are written below a `root` (an `NginxServer`'s, typically) in a directory `name` of
/// their own, and every path they return is relative to that root, ready for `NginxServer.url`.
public enum MediaFixtures {
    /// Why a fixture could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// How an AES-128 fixture's segments get their IVs.
    public enum AESIV: Sendable {
        /// ffmpeg's own `-hls_key_info_file` encryption. ffmpeg 5.1 writes an explicit
        /// `IV=0x000…0` on the KEY tag and encrypts every segment with that same IV.
        case explicitFromFFmpeg
        /// No IV attribute: each segment encrypted (by `openssl enc`) with its media sequence
        /// number as the IV, RFC 8216 §5.2. The sequence starts at 5, so the IVs are not zero.
        case mediaSequenceNumber
    }

    /// Makes `root/name` (an MP4 clip, H.264 + AAC, 160x90, 25 fps, a key frame each second) of
    /// `seconds` seconds.
    /// `size` and `sampleRate` make a clip encoded otherwise, as an advertisement spliced into a
    /// programme may be.
    public static func clip(seconds: Int = 3, root: String, name: String = "clip.mp4", size: String = "160x90",
                            sampleRate: Int = 44100) async throws -> MediaClip {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try await ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25:duration=\(seconds)",
                          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(sampleRate):duration=\(seconds)"]
                         + h264(keyFramesEverySecond: true) + ["-c:a", "aac", "-b:a", "32k", "-shortest", "-movflags", "+faststart",
                                                              root + "/" + name])
        return MediaClip(root: root, path: name, duration: Double(seconds))
    }

    /// An HLS VOD in MPEG-TS segments, two variants: `v0` 160x90 at ~600 kb/s, `v1` 96x54 at
    /// ~60 kb/s (BANDWIDTH 695200 and 101200 in the master, audio included), `master.m3u8` above
    /// them. About 270 kB and 50 kB for 3 s.
    public static func hlsTS(from clip: MediaClip, name: String = "hls-ts") async throws -> HLSFixture {
        try await twoVariants(from: clip, name: name, fragmentedMP4: false)
    }

    /// The same two variants in fragmented MP4: `.m4s` segments, each variant's `#EXT-X-MAP`
    /// naming its init section (`v0/init_0.mp4`, `v1/init_1.mp4`).
    public static func hlsFMP4(from clip: MediaClip, name: String = "hls-fmp4") async throws -> HLSFixture {
        try await twoVariants(from: clip, name: name, fragmentedMP4: true)
    }

    /// A one-variant HLS VOD in AES-128 encrypted MPEG-TS segments (the clip's streams copied),
    /// its 16-byte key in `name/key.bin`, and `#EXT-X-KEY:…,URI="<keyURI>"`: a relative URI
    /// resolves beside the playlist; pass an absolute one to serve the key from elsewhere.
    public static func hlsAES128(from clip: MediaClip, name: String = "hls-aes", keyURI: String = "key.bin",
                                 iv: AESIV = .explicitFromFFmpeg) async throws -> HLSFixture {
        let directory = try makeDirectory(clip.root, name)
        var generator = SystemRandomNumberGenerator()
        let key: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let keyPath = directory + "/key.bin"
        guard FileManager.default.createFile(atPath: keyPath, contents: Data(key)) else {
            throw Failure(description: "cannot write \(keyPath)")
        }
        switch iv {
        case .explicitFromFFmpeg:
            let scratch = try ScratchDirectory("vodapp-keyinfo")
            let keyInfo = scratch.child("keyinfo")
            try "\(keyURI)\n\(keyPath)\n".write(toFile: keyInfo, atomically: true, encoding: .utf8)
            try await ffmpeg(["-i", clip.absolutePath, "-c", "copy"] + hls(vod: true)
                             + ["-hls_key_info_file", keyInfo, "-hls_segment_filename", directory + "/seg%d.ts", directory + "/index.m3u8"])
        case .mediaSequenceNumber:
            try await ffmpeg(["-i", clip.absolutePath, "-c", "copy"] + hls(vod: true)
                             + ["-start_number", "5", "-hls_segment_filename", directory + "/seg%d.ts", directory + "/index.m3u8"])
            let playlistPath = directory + "/index.m3u8"
            let lines = try String(contentsOfFile: playlistPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var sequence = 5
            for line in lines where !line.isEmpty && !line.hasPrefix("#") {
                let segment = directory + "/" + line
                let ivHex = String(repeating: "0", count: 16) + String(format: "%016llx", UInt64(sequence))
                try await run("/usr/bin/openssl", ["enc", "-aes-128-cbc", "-K", hex(key), "-iv", ivHex,
                                                  "-in", segment, "-out", segment + ".enc"])
                guard rename(segment + ".enc", segment) == 0 else {
                    throw Failure(description: "cannot rename \(segment).enc: \(String(cString: strerror(errno)))")
                }
                sequence += 1
            }
            guard let first = lines.firstIndex(where: { $0.hasPrefix("#EXTINF") }) else {
                throw Failure(description: "ffmpeg wrote no #EXTINF in \(playlistPath)")
            }
            var edited = lines.map(String.init)
            edited.insert("#EXT-X-KEY:METHOD=AES-128,URI=\"\(keyURI)\"", at: first)
            try edited.joined(separator: "\n").write(toFile: playlistPath, atomically: true, encoding: .utf8)
        }
        let variant = try HLSFixtureVariant(root: clip.root, playlist: name + "/index.m3u8", bandwidth: nil, resolution: "160x90")
        return HLSFixture(root: clip.root, directory: name, master: nil, variants: [variant], sourceDuration: clip.duration,
                          key: key, keyPath: name + "/key.bin")
    }

    /// A one-variant HLS VOD kept in one file, each segment a byte range of it
    /// (`-hls_flags single_file`: `#EXT-X-BYTERANGE`, and in fMP4 an `#EXT-X-MAP` whose BYTERANGE
    /// is the file's init section), as Apple's and some broadcasters' single-file streams are.
    public static func hlsSingleFile(from clip: MediaClip, fragmentedMP4: Bool, name: String = "hls-single") async throws -> HLSFixture {
        let directory = try makeDirectory(clip.root, name)
        var arguments = ["-i", clip.absolutePath, "-c", "copy"] + hls(vod: true) + ["-hls_flags", "single_file"]
        if fragmentedMP4 { arguments += ["-hls_segment_type", "fmp4"] }
        arguments += ["-hls_segment_filename", directory + "/all." + (fragmentedMP4 ? "m4s" : "ts"), directory + "/index.m3u8"]
        try await ffmpeg(arguments)
        let variant = try HLSFixtureVariant(root: clip.root, playlist: name + "/index.m3u8", bandwidth: nil, resolution: "160x90")
        return HLSFixture(root: clip.root, directory: name, master: nil, variants: [variant], sourceDuration: clip.duration,
                          key: nil, keyPath: nil)
    }

    /// One media playlist made of `clips` one after another, each cut into HLS on its own (so each
    /// one's timestamps start again, at 1.4 s in MPEG-TS), with an `#EXT-X-DISCONTINUITY` between
    /// them, as an ad break or a broadcaster's splice has it. In fMP4, each clip has its own init
    /// section, named by a new `#EXT-X-MAP` after each discontinuity.
    public static func hlsSpliced(_ clips: [MediaClip], fragmentedMP4: Bool, name: String = "hls-spliced") async throws -> HLSFixture {
        let directory = try makeDirectory(clips[0].root, name)
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for (index, clip) in clips.enumerated() {
            let part = "part\(index)"
            _ = try makeDirectory(directory, part)
            var arguments = ["-i", clip.absolutePath, "-c", "copy"] + hls(vod: true)
            if fragmentedMP4 { arguments += ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"] }
            arguments += ["-hls_segment_filename", directory + "/\(part)/seg%d." + (fragmentedMP4 ? "m4s" : "ts"), directory + "/\(part)/index.m3u8"]
            try await ffmpeg(arguments)
            if index > 0 { lines.append("#EXT-X-DISCONTINUITY") }
            if fragmentedMP4 { lines.append("#EXT-X-MAP:URI=\"\(part)/init.mp4\"") }
            let own = try String(contentsOfFile: directory + "/\(part)/index.m3u8", encoding: .utf8).split(separator: "\n")
            for line in own where line.hasPrefix("#EXTINF") || !line.hasPrefix("#") && !line.isEmpty {
                lines.append(line.hasPrefix("#") ? String(line) : "\(part)/\(line)")
            }
        }
        lines.append("#EXT-X-ENDLIST")
        try (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/index.m3u8", atomically: true, encoding: .utf8)
        let variant = try HLSFixtureVariant(root: clips[0].root, playlist: name + "/index.m3u8", bandwidth: nil, resolution: "160x90")
        return HLSFixture(root: clips[0].root, directory: name, master: nil, variants: [variant],
                          sourceDuration: clips.reduce(0) { $0 + $1.duration }, key: nil, keyPath: nil)
    }

    /// A live HLS playlist, as a server has it mid-stream: the clip's last `listSize` segments
    /// (`-hls_list_size`), no `#EXT-X-PLAYLIST-TYPE` and no `#EXT-X-ENDLIST`. The earlier segment
    /// files stay on disk.
    public static func hlsLive(from clip: MediaClip, name: String = "hls-live", listSize: Int = 2) async throws -> HLSFixture {
        let directory = try makeDirectory(clip.root, name)
        try await ffmpeg(["-i", clip.absolutePath, "-c", "copy"] + hls(vod: false)
                         + ["-hls_list_size", "\(listSize)", "-hls_flags", "omit_endlist",
                            "-hls_segment_filename", directory + "/seg%d.ts", directory + "/index.m3u8"])
        let variant = try HLSFixtureVariant(root: clip.root, playlist: name + "/index.m3u8", bandwidth: nil, resolution: "160x90")
        return HLSFixture(root: clip.root, directory: name, master: nil, variants: [variant], sourceDuration: clip.duration,
                          key: nil, keyPath: nil)
    }

    /// How a DASH fixture's segments are addressed.
    public enum DASHLayout: Sendable, CaseIterable {
        /// ffmpeg's default: `SegmentTemplate` with `$Number%05d$` and a `SegmentTimeline`.
        case templateWithTimeline
        /// `SegmentTemplate` with `$Number%05d$` and a fixed `duration` (`-use_timeline 0`).
        case templateWithNumber
        /// One file per stream, its fragments in a `SegmentList` of `mediaRange`s (`-single_file 1`).
        case singleFileList
        /// One file per stream (`-movflags dash+global_sidx`), a `SegmentBase` whose `indexRange`
        /// names its `sidx`: the manifest is written here, as a packager (MP4Box, Shaka) writes it.
        case singleFileIndexed
    }

    /// A DASH presentation (`-f dash`, 1 s segments), video and audio in adaptation sets of
    /// their own: `name/manifest.mpd`. With `twoLanguages`, two audio sets: English (`eng`, 44.1
    /// kHz) then German (`deu`, 22.05 kHz), so that which one a file holds shows in its sample rate.
    /// With `subtitles`, an English WebVTT text set besides (`englishSubtitles` in one file,
    /// `subtitles_en.vtt`, as many services publish them).
    public static func dash(from clip: MediaClip, name: String = "dash", layout: DASHLayout = .templateWithTimeline,
                            twoLanguages: Bool = false, subtitles: Bool = false) async throws -> DASHFixture {
        let directory = try makeDirectory(clip.root, name)
        if layout == .singleFileIndexed {
            return try await indexedDASH(from: clip, name: name, directory: directory)
        }
        var arguments = ["-i", clip.absolutePath]
        if twoLanguages {
            arguments += ["-map", "0:v", "-map", "0:a", "-map", "0:a", "-c:v", "copy", "-c:a", "aac", "-b:a", "32k",
                          "-ar:a:0", "44100", "-ar:a:1", "22050", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=deu",
                          "-adaptation_sets", "id=0,streams=v id=1,streams=1 id=2,streams=2"]
        } else {
            arguments += ["-c", "copy"]
        }
        arguments += ["-f", "dash", "-seg_duration", "1"]
        switch layout {
        case .templateWithTimeline, .singleFileIndexed: break
        case .templateWithNumber: arguments += ["-use_timeline", "0"]
        case .singleFileList: arguments += ["-single_file", "1"]
        }
        try await ffmpeg(arguments + [directory + "/manifest.mpd"])
        if subtitles {
            let srt = clip.root + "/\(name)-en.srt"
            try englishSubtitles.write(toFile: srt, atomically: true, encoding: .utf8)
            try await ffmpeg(["-i", srt, "-f", "webvtt", directory + "/subtitles_en.vtt"])
            let manifestPath = directory + "/manifest.mpd"
            let manifest = try String(contentsOfFile: manifestPath, encoding: .utf8)
            let set = """
                <AdaptationSet id="9" contentType="text" mimeType="text/vtt" lang="en">
                  <Role schemeIdUri="urn:mpeg:dash:role:2011" value="subtitle"/>
                  <Representation id="subtitles-en" bandwidth="256"><BaseURL>subtitles_en.vtt</BaseURL></Representation>
                </AdaptationSet>

                """
            guard let end = manifest.range(of: "</Period>") else { throw Failure(description: "ffmpeg's manifest has no Period: \(manifest)") }
            try (manifest[..<end.lowerBound] + set + manifest[end.lowerBound...]).write(toFile: manifestPath, atomically: true, encoding: .utf8)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != "manifest.mpd" }.sorted()
        return DASHFixture(root: clip.root, manifest: name + "/manifest.mpd", files: files.map { name + "/" + $0 },
                           sourceDuration: clip.duration)
    }

    /// `SegmentBase` DASH: the clip's video and audio each in one fragmented MP4 with a global
    /// `sidx` after its `moov`, and a manifest naming the bytes of each.
    private static func indexedDASH(from clip: MediaClip, name: String, directory: String) async throws -> DASHFixture {
        var sets = ""
        for (index, stream) in ["v", "a"].enumerated() {
            let file = stream == "v" ? "video.mp4" : "audio.mp4"
            try await ffmpeg(["-i", clip.absolutePath, "-map", "0:\(stream)", "-c", "copy", "-movflags", "dash+global_sidx",
                              "-f", "mp4", directory + "/" + file])
            let boxes = topLevelBoxRanges(directory + "/" + file)
            guard let sidx = boxes.first(where: { $0.type == "sidx" }) else { throw Failure(description: "ffmpeg wrote no sidx in \(file)") }
            let (kind, codec) = stream == "v" ? ("video", "avc1.42c00b\" width=\"160\" height=\"90") : ("audio", "mp4a.40.2")
            sets += """
                <AdaptationSet id="\(index)" contentType="\(kind)">
                  <Representation id="\(index)" mimeType="\(kind)/mp4" codecs="\(codec)" bandwidth="\(stream == "v" ? 300000 : 32000)">
                    <BaseURL>\(file)</BaseURL>
                    <SegmentBase indexRange="\(sidx.offset)-\(sidx.offset + sidx.size - 1)">
                      <Initialization range="0-\(sidx.offset - 1)"/>
                    </SegmentBase>
                  </Representation>
                </AdaptationSet>

            """
        }
        let manifest = """
            <?xml version="1.0" encoding="UTF-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT\(clip.duration)S"
                 profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" minBufferTime="PT2S">
              <Period>
            \(sets)  </Period>
            </MPD>

            """
        try manifest.write(toFile: directory + "/manifest.mpd", atomically: true, encoding: .utf8)
        return DASHFixture(root: clip.root, manifest: name + "/manifest.mpd", files: [name + "/audio.mp4", name + "/video.mp4"],
                           sourceDuration: clip.duration)
    }

    /// The duration ffprobe reads from a file's container, seconds; nil when ffprobe cannot read it.
    public static func ffprobeDuration(_ path: String) async -> Double? {
        guard let output = try? await run("/usr/bin/env", ["ffprobe", "-v", "error", "-show_entries", "format=duration",
                                                           "-of", "default=noprint_wrappers=1:nokey=1", path]) else { return nil }
        return Double(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// What ffmpeg says, at level error, when it decodes the whole file to nothing: empty for a
    /// file that plays start to end without a fault.
    public static func decodeErrors(_ path: String) async -> String {
        do {
            let run = try await runTool("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"])
            return run.exitCode == 0 ? run.stderr : "exit \(run.exitCode): \(run.stderr)"
        } catch {
            return "\(error)"
        }
    }

    /// The types of an MP4 file's top-level boxes, in order (`ftyp`, `moov`, `mdat`, …): with
    /// `+faststart`, `moov` comes before `mdat`.
    public static func topLevelBoxes(_ path: String) -> [String] {
        topLevelBoxRanges(path).map(\.type)
    }

    /// An MP4 file's top-level boxes: type, offset and size; `(broken)` where a size is wrong.
    public static func topLevelBoxRanges(_ path: String) -> [(type: String, offset: Int, size: Int)] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let bytes = [UInt8](data)
        var boxes: [(type: String, offset: Int, size: Int)] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= bytes.count { size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            if size == 0 {
                boxes.append((type, offset, bytes.count - offset))
                break
            }
            guard size >= 8 else { return boxes + [("(broken)", offset, 0)] }
            boxes.append((type, offset, size))
            offset += size
        }
        return boxes
    }

    /// The streams ffprobe finds in a file, in order; empty when it cannot read it.
    /// The first stream of `type` (`video`, `audio`) ffprobe reads in `path`.
    public static func ffprobeStream(_ path: String, _ type: String) async -> ProbedStream? {
        await ffprobeStreams(path).first { $0.codecType == type }
    }

    public static func ffprobeStreams(_ path: String) async -> [ProbedStream] {
        guard let output = try? await run("/usr/bin/env", ["ffprobe", "-v", "error", "-show_entries",
                                                           "stream=codec_type,codec_name,width,height,duration,sample_rate:stream_tags=language",
                                                           "-of", "json", path]),
              let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              let streams = object["streams"] as? [[String: Any]] else { return [] }
        return streams.map { stream in
            var probed = ProbedStream(codecType: stream["codec_type"] as? String ?? "", codecName: stream["codec_name"] as? String ?? "",
                                      width: stream["width"] as? Int, height: stream["height"] as? Int,
                                      duration: (stream["duration"] as? String).flatMap(Double.init))
            probed.sampleRate = (stream["sample_rate"] as? String).flatMap { Int($0) }
            probed.language = (stream["tags"] as? [String: Any])?["language"] as? String
            return probed
        }
    }

    /// An HLS VOD whose one variant (`v/`) holds only the clip's video, its audio in two
    /// `#EXT-X-MEDIA` renditions of one group: English (`en/`, 44.1 kHz) and German (`de/`,
    /// 22.05 kHz, `DEFAULT=YES`), so that which one a file holds shows in its sample rate.
    public static func hlsAudioRenditions(from clip: MediaClip, fragmentedMP4: Bool,
                                          name: String = "hls-renditions") async throws -> HLSFixture {
        let directory = try makeDirectory(clip.root, name)
        var arguments = ["-i", clip.absolutePath, "-map", "0:v", "-map", "0:a", "-map", "0:a", "-c:v", "copy",
                         "-c:a", "aac", "-b:a", "32k", "-ar:a:0", "44100", "-ar:a:1", "22050"]
        arguments += hls(vod: true)
        if fragmentedMP4 { arguments += ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"] }
        arguments += ["-hls_segment_filename", directory + "/%v/" + (fragmentedMP4 ? "seg%d.m4s" : "seg%d.ts"),
                      "-master_pl_name", "master.m3u8",
                      "-var_stream_map", "v:0,agroup:aud,name:v a:0,agroup:aud,language:en,name:en a:1,agroup:aud,language:de,name:de,default:yes",
                      directory + "/%v/index.m3u8"]
        try await ffmpeg(arguments)
        let variant = try HLSFixtureVariant(root: clip.root, playlist: "\(name)/v/index.m3u8", bandwidth: nil, resolution: "160x90")
        return HLSFixture(root: clip.root, directory: name, master: name + "/master.m3u8", variants: [variant],
                          sourceDuration: clip.duration, key: nil, keyPath: nil)
    }

    /// The English subtitles of `hlsSubtitles` and `dash(subtitles:)`, as SubRip for ffmpeg:
    /// "Hello" 1.0–1.8 s, "Across the boundary" 1.9–2.6 s, "Bye" 2.7–2.95 s.
    public static let englishSubtitles = """
        1
        00:00:01,000 --> 00:00:01,800
        Hello

        2
        00:00:01,900 --> 00:00:02,600
        Across the boundary

        3
        00:00:02,700 --> 00:00:02,950
        Bye

        """

    /// An HLS VOD (MPEG-TS, or fMP4) whose one variant (`v/`) holds the clip's video and sound
    /// and names the subtitle group `subs`, of three WebVTT renditions:
    /// - English (`en`), segmented by ffmpeg's own `webvtt` muxer from `englishSubtitles`,
    ///   without X-TIMESTAMP-MAP (its cue times are the stream's, from its start);
    /// - French (`fr`, `fr/`), written here as Apple's packager writes it: every 1 s segment with
    ///   `X-TIMESTAMP-MAP=MPEGTS:<the first segment's start>,LOCAL:00:00:00.000`, and each cue
    ///   that crosses a segment's end repeated in the next ("Bonjour" 0.5–1.2 s, "Au revoir"
    ///   1.5–2.5 s);
    /// - French FORCED (`fr-forced/`), the foreign-language lines only ("FORCÉ").
    public static func hlsSubtitles(from clip: MediaClip, fragmentedMP4: Bool = false,
                                    name: String = "hls-subtitles") async throws -> HLSFixture {
        let directory = try makeDirectory(clip.root, name)
        let srt = directory + "/en.srt"
        try englishSubtitles.write(toFile: srt, atomically: true, encoding: .utf8)
        var arguments = ["-i", clip.absolutePath, "-i", srt, "-map", "0:v", "-map", "0:a", "-map", "1",
                         "-c:v", "copy", "-c:a", "copy", "-c:s", "webvtt"]
        arguments += hls(vod: true)
        if fragmentedMP4 { arguments += ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"] }
        arguments += ["-hls_segment_filename", directory + "/v/" + (fragmentedMP4 ? "seg%d.m4s" : "seg%d.ts"),
                      "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,a:0,s:0,sgroup:subs,language:en,name:v",
                      directory + "/%v/index.m3u8"]
        try await ffmpeg(arguments)
        // Where the media's clock starts: the first segment's start (1.4 s in MPEG-TS).
        let first = directory + "/first-segment"
        var bytes = Data()
        if fragmentedMP4 { bytes += try Data(contentsOf: URL(fileURLWithPath: directory + "/v/init.mp4")) }
        bytes += try Data(contentsOf: URL(fileURLWithPath: directory + "/v/" + (fragmentedMP4 ? "seg0.m4s" : "seg0.ts")))
        try bytes.write(to: URL(fileURLWithPath: first))
        let probed = try await run("/usr/bin/env", ["ffprobe", "-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", first])
        try FileManager.default.removeItem(atPath: first)
        guard let start = Double(probed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "ffprobe gave no start time: \(probed)")
        }
        let map = "X-TIMESTAMP-MAP=MPEGTS:\(Int((start * 90_000).rounded())),LOCAL:00:00:00.000"
        let french = [["00:00.500 --> 00:01.200\nBonjour"],
                      ["00:00.500 --> 00:01.200\nBonjour", "00:01.500 --> 00:02.500 line:90%\nAu revoir"],
                      ["00:01.500 --> 00:02.500 line:90%\nAu revoir"]]
        for (folder, segments) in [("fr", french), ("fr-forced", [["00:00.200 --> 00:00.900\nFORCÉ"], [], []])] {
            try FileManager.default.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
            var playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            for (index, cues) in segments.enumerated() {
                let text = "WEBVTT\n\(map)\n\n" + cues.map { $0 + "\n" }.joined(separator: "\n")
                try text.write(toFile: directory + "/\(folder)/\(index).vtt", atomically: true, encoding: .utf8)
                playlist += "#EXTINF:1.0,\n\(index).vtt\n"
            }
            try (playlist + "#EXT-X-ENDLIST\n").write(toFile: directory + "/\(folder)/index.m3u8", atomically: true, encoding: .utf8)
        }
        let masterPath = directory + "/master.m3u8"
        let master = try String(contentsOfFile: masterPath, encoding: .utf8)
        let renditions = """
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES,URI="fr/index.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français (forcé)",LANGUAGE="fr",FORCED=YES,URI="fr-forced/index.m3u8"

            """
        guard let streamInf = master.range(of: "#EXT-X-STREAM-INF") else { throw Failure(description: "ffmpeg's master has no variant: \(master)") }
        try (master[..<streamInf.lowerBound] + renditions + master[streamInf.lowerBound...]).write(toFile: masterPath, atomically: true, encoding: .utf8)
        let variant = try HLSFixtureVariant(root: clip.root, playlist: "\(name)/v/index.m3u8", bandwidth: nil, resolution: "160x90")
        return HLSFixture(root: clip.root, directory: name, master: name + "/master.m3u8", variants: [variant],
                          sourceDuration: clip.duration, key: nil, keyPath: nil)
    }

    // MARK: How they are made

    private static func twoVariants(from clip: MediaClip, name: String, fragmentedMP4: Bool) async throws -> HLSFixture {
        let directory = try makeDirectory(clip.root, name)
        let segment = fragmentedMP4 ? "seg%d.m4s" : "seg%d.ts"
        var arguments = ["-i", clip.absolutePath, "-map", "0:v", "-map", "0:a", "-map", "0:v", "-map", "0:a"]
        arguments += h264(keyFramesEverySecond: true)
        // Capped rates, so that the two variants differ by a factor of ten however simple the picture.
        arguments += ["-b:v:0", "600k", "-maxrate:v:0", "600k", "-bufsize:v:0", "600k",
                      "-b:v:1", "60k", "-maxrate:v:1", "60k", "-bufsize:v:1", "60k", "-s:v:1", "96x54",
                      "-c:a", "aac", "-b:a", "32k"]
        arguments += hls(vod: true)
        if fragmentedMP4 { arguments += ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"] }
        arguments += ["-hls_segment_filename", directory + "/v%v/" + segment, "-master_pl_name", "master.m3u8",
                      "-var_stream_map", "v:0,a:0 v:1,a:1", directory + "/v%v/index.m3u8"]
        try await ffmpeg(arguments)
        let master = try String(contentsOfFile: directory + "/master.m3u8", encoding: .utf8)
        let infos = master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        let variants = try (0..<2).map { index in
            try HLSFixtureVariant(root: clip.root, playlist: "\(name)/v\(index)/index.m3u8",
                                  bandwidth: infos.count > index ? attribute("BANDWIDTH", in: infos[index]).flatMap { Int($0) } : nil,
                                  resolution: index == 0 ? "160x90" : "96x54")
        }
        return HLSFixture(root: clip.root, directory: name, master: name + "/master.m3u8", variants: variants,
                          sourceDuration: clip.duration, key: nil, keyPath: nil)
    }

    private static func h264(keyFramesEverySecond: Bool) -> [String] {
        ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
            + (keyFramesEverySecond ? ["-g", "25", "-keyint_min", "25", "-sc_threshold", "0"] : [])
    }

    private static func hls(vod: Bool) -> [String] {
        ["-f", "hls", "-hls_time", "1"] + (vod ? ["-hls_playlist_type", "vod"] : [])
    }

    private static func makeDirectory(_ root: String, _ name: String) throws -> String {
        let directory = root + "/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// An unquoted attribute's value in an attribute list; enough for ffmpeg's master playlists.
    private static func attribute(_ name: String, in line: Substring) -> String? {
        line.drop { $0 != ":" }.dropFirst().split(separator: ",").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Encoding takes both cores: it waits for the timing-sensitive suites (`HeavyWork`).
    private static func ffmpeg(_ arguments: [String]) async throws {
        try await HeavyWork.exclusively {
            _ = try await run("/usr/bin/env", ["ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-y"] + arguments)
        }
    }

    /// Runs a command to its end (`runTool`) and returns its stdout; throws, with the end of its
    /// stderr, when it does not exit with 0.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        let run = try await runTool(executable, arguments, timeout: .seconds(120))
        guard run.exited, run.exitCode == 0 else {
            let command = ([executable] + arguments).joined(separator: " ")
            throw Failure(description: "\(command) exited with \(run.exitCode): \(run.stderr.suffix(2000))")
        }
        return run.stdout
    }
}

/// A clip made by `MediaFixtures.clip`.
public struct MediaClip: Sendable {
    public let root: String
    /// Relative to `root`.
    public let path: String
    /// The length asked of ffmpeg, seconds (ffprobe reads exactly this back).
    public let duration: Double

    public var absolutePath: String { root + "/" + path }
}

/// An HLS presentation made by `MediaFixtures`. Paths are relative to `root`.
public struct HLSFixture: Sendable {
    public let root: String
    /// The directory all its files are in.
    public let directory: String
    /// The master playlist, for the two-variant fixtures; nil when there is one media playlist.
    public let master: String?
    public let variants: [HLSFixtureVariant]
    /// The clip's duration, seconds.
    public let sourceDuration: Double
    /// The AES-128 key, for the encrypted fixture.
    public let key: [UInt8]?
    public let keyPath: String?

    /// Where a relative path of the fixture is on disk.
    public func absolute(_ path: String) -> String { root + "/" + path }
}

/// One media playlist of an `HLSFixture`, read back from what ffmpeg wrote.
public struct HLSFixtureVariant: Sendable {
    public let playlist: String
    /// The `#EXT-X-MAP` init section, for fMP4.
    public let initSection: String?
    /// The segments the playlist lists, in order.
    public let segments: [String]
    /// The media sequence number of the first listed segment.
    public let mediaSequence: Int
    /// BANDWIDTH in the master, when there is one.
    public let bandwidth: Int?
    public let resolution: String

    /// Reads the playlist with a few string operations, independent of the product's parser.
    init(root: String, playlist: String, bandwidth: Int?, resolution: String) throws {
        let text = try String(contentsOfFile: root + "/" + playlist, encoding: .utf8)
        let directory = playlist.split(separator: "/").dropLast().joined(separator: "/")
        let lines = text.split(separator: "\n")
        self.playlist = playlist
        segments = lines.filter { !$0.hasPrefix("#") }.map { directory + "/" + $0 }
        initSection = lines.first { $0.hasPrefix("#EXT-X-MAP:") }
            .flatMap { $0.split(separator: "\"").dropFirst().first }.map { directory + "/" + $0 }
        mediaSequence = lines.first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }.flatMap { Int($0.dropFirst(22)) } ?? 0
        self.bandwidth = bandwidth
        self.resolution = resolution
    }
}

/// A DASH presentation made by `MediaFixtures.dash`. Paths are relative to `root`.
public struct DASHFixture: Sendable {
    public let root: String
    public let manifest: String
    /// Init sections and chunks, sorted by name.
    public let files: [String]
    public let sourceDuration: Double
}

/// One stream as ffprobe describes it.
public struct ProbedStream: Sendable, Equatable {
    /// `video`, `audio`, …
    public let codecType: String
    /// `h264`, `aac`, …
    public let codecName: String
    public let width: Int?
    public let height: Int?
    public let duration: Double?
    /// An audio stream's samples a second.
    public var sampleRate: Int?
    /// Its `language` tag, when it has one (`eng`; `und` when the muxer was given none it takes).
    public var language: String?

    public init(codecType: String, codecName: String, width: Int? = nil, height: Int? = nil, duration: Double? = nil) {
        self.codecType = codecType
        self.codecName = codecName
        self.width = width
        self.height = height
        self.duration = duration
    }
}
