import Foundation
import Testing
import UnitTestSupport
import VODAppHLS
import VODAppModel
import VODAppStreams

@Suite struct HLSPlaylistTests {
    private let base: MediaURL

    init() throws {
        base = try MediaURL("http://media.test/vod/master.m3u8?token=abc")
    }

    private func parse(_ lines: [String]) throws -> HLSPlaylist {
        try HLSPlaylist.parse(text: lines.joined(separator: "\n") + "\n", url: base)
    }

    private func media(_ lines: [String]) throws -> HLSMediaPlaylist {
        try #require(try parse(lines).media)
    }

    private func error(_ lines: [String]) -> HLSPlaylistError? {
        do {
            _ = try HLSPlaylist.parse(text: lines.joined(separator: "\n"), url: base)
            return nil
        } catch {
            return error
        }
    }

    private func url(_ text: String) throws -> MediaURL { try MediaURL(text) }

    // MARK: Master playlists

    /// An https playlist's segments, keys and variants must be https too, as a redirect from
    /// https must: otherwise the media (and the key that unlocks it) cross the network in clear.
    @Test func anHTTPSPlaylistThatNamesPlainHTTPIsFound() throws {
        let secure = try MediaURL("https://media.test/vod/index.m3u8")
        func plain(_ lines: [String], from url: MediaURL) throws -> String? {
            let playlist = try HLSPlaylist.parse(text: lines.joined(separator: "\n") + "\n", url: url)
            return playlist.plainHTTPURL(fetchedFrom: url)?.absoluteString
        }
        let segments = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXTINF:2,", "a.ts", "#EXTINF:2,", "http://media.test/b.ts", "#EXT-X-ENDLIST"]
        #expect(try plain(segments, from: secure) == "http://media.test/b.ts")
        #expect(try plain(segments, from: base) == nil, "over http, nothing is downgraded")
        let key = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", #"#EXT-X-KEY:METHOD=AES-128,URI="http://keys.test/k""#,
                   "#EXTINF:2,", "a.ts", "#EXT-X-ENDLIST"]
        #expect(try plain(key, from: secure) == "http://keys.test/k")
        let master = ["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1000", "low.m3u8", "#EXT-X-STREAM-INF:BANDWIDTH=2000", "http://media.test/high.m3u8"]
        #expect(try plain(master, from: secure) == "http://media.test/high.m3u8")
        #expect(try plain(Array(master.prefix(3)), from: secure) == nil)
        // A subtitle rendition on http decides nothing for the video: it is checked only when
        // it is asked for (`SubtitleDownload`).
        let subtitled = [#"#EXTM3U"#, #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",URI="http://subs.test/en.m3u8""#,
                         #"#EXT-X-STREAM-INF:BANDWIDTH=1000,SUBTITLES="s""#, "low.m3u8"]
        #expect(try plain(subtitled, from: secure) == nil)
    }

    @Test func masterReadsQuotedCodecsWithCommasAndResolvesEachURI() throws {
        let master = try #require(try parse([
            "#EXTM3U",
            "#EXT-X-VERSION:6",
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",URI="audio/en.m3u8""#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2""#,
            "low/index.m3u8",
            "",
            "# a comment between variants",
            #"#EXT-X-STREAM-INF:CODECS="avc1.640028, mp4a.40.2",RESOLUTION=1920x1080,BANDWIDTH=6000000, AUDIO="aud""#,
            "/other/high.m3u8",
            #"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="low/iframe.m3u8""#,
            "#EXT-X-STREAM-INF:BANDWIDTH=300000",
            "https://cdn.test/audio-only.m3u8",
        ]).master)
        #expect(master.url == base)
        #expect(master.variants == [
            HLSVariant(url: try url("http://media.test/vod/low/index.m3u8"), bandwidth: 1_280_000, averageBandwidth: 1_000_000,
                       resolution: HLSResolution(width: 640, height: 360), codecs: ["avc1.4d401e", "mp4a.40.2"]),
            HLSVariant(url: try url("http://media.test/other/high.m3u8"), bandwidth: 6_000_000,
                       resolution: HLSResolution(width: 1920, height: 1080), codecs: ["avc1.640028", "mp4a.40.2"], audioGroup: "aud"),
            HLSVariant(url: try url("https://cdn.test/audio-only.m3u8"), bandwidth: 300_000),
        ])
    }

    @Test func masterRefusesAVariantWithoutURIAndTakesOneWithoutBandwidth() throws {
        // Without BANDWIDTH, as players take it: unknown, 0.
        let lenient = try HLSPlaylist.parse(text: "#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\na.m3u8\n", url: base).master?.variants
        #expect(lenient?.map(\.bandwidth) == [0])
        #expect(error(["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1", "#EXT-X-STREAM-INF:BANDWIDTH=2", "a.m3u8"])
                == .missingURI(tag: "EXT-X-STREAM-INF", line: 2))
        #expect(error(["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1"])?.description
                == "HLS playlist line 2: #EXT-X-STREAM-INF is not followed by a URI line")
        #expect(error(["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=wide", "a.m3u8"])?.description
                == #"HLS playlist line 2: #EXT-X-STREAM-INF RESOLUTION="wide" is not WIDTHxHEIGHT"#)
    }

    @Test func attributeListsThatBreakTheGrammarAreRefused() {
        #expect(error(["#EXTM3U", #"#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1"#, "a.m3u8"])?.description
                == "HLS playlist line 2: #EXT-X-STREAM-INF has a malformed attribute list (CODECS's quoted string is not closed)")
        #expect(error(["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1,BANDWIDTH=2", "a.m3u8"])
                == .badAttributeList(tag: "EXT-X-STREAM-INF", line: 2, detail: "BANDWIDTH appears twice"))
        #expect(error(["#EXTM3U", "#EXT-X-STREAM-INF:bandwidth=1", "a.m3u8"])
                == .badAttributeList(tag: "EXT-X-STREAM-INF", line: 2, detail: #""bandwidth=1" is not NAME=value"#))
        #expect(error(["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=12k", "a.m3u8"])
                == .badValue(tag: "EXT-X-STREAM-INF", line: 2, detail: #"BANDWIDTH="12k" is not a whole number"#))
        #expect(error(["#EXTM3U", #"#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="a"b"#, "a.m3u8"])
                == .badAttributeList(tag: "EXT-X-STREAM-INF", line: 2, detail: "text after CODECS's closing quote"))
    }

    // MARK: Media playlists

    @Test func mediaSegmentsResolveRelativeAndAbsoluteURIsAndNumberFromTheMediaSequence() throws {
        let playlist = try media([
            "#EXTM3U",
            "#EXT-X-TARGETDURATION:4",
            "#EXT-X-MEDIA-SEQUENCE:41",
            "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXTINF:4.004,First part",
            "seg0.ts",
            "#EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00Z",
            "#EXTINF:3.5,",
            "../shared/seg1.ts?x=1",
            "#EXT-X-DISCONTINUITY",
            "#EXT-X-UNKNOWN-TAG:whatever",
            "#EXTINF:2",
            "https://cdn.test/seg2.ts",
            "#EXT-X-ENDLIST",
        ])
        #expect(playlist.targetDuration == 4)
        #expect(playlist.mediaSequence == 41)
        #expect(playlist.playlistType == .vod)
        #expect(playlist.segments.map(\.url.absoluteString)
                == ["http://media.test/vod/seg0.ts", "http://media.test/shared/seg1.ts?x=1", "https://cdn.test/seg2.ts"])
        #expect(playlist.segments.map(\.sequenceNumber) == [41, 42, 43])
        #expect(playlist.segments.map(\.duration) == [4.004, 3.5, 2])
        #expect(playlist.segments.map(\.title) == ["First part", nil, nil])
        #expect(playlist.segments.map(\.followsDiscontinuity) == [false, false, true])
        #expect(abs(playlist.duration - 9.504) < 1e-9)
        #expect(playlist.segmentFormat == .mpegTS)
        #expect(playlist.segments.allSatisfy { $0.key == nil && $0.map == nil && $0.byteRange == nil })
    }

    @Test func crlfLineEndsAndAByteOrderMarkAreRead() throws {
        let text = "\u{FEFF}#EXTM3U\r\n#EXTINF:1.0,\r\na.ts\r\n#EXT-X-ENDLIST\r\n"
        let playlist = try #require(try HLSPlaylist.parse([UInt8](text.utf8), url: base).media)
        #expect(playlist.segments.map(\.url.absoluteString) == ["http://media.test/vod/a.ts"])
        #expect(playlist.hasEndList)
    }

    @Test func byteRangesWithoutAnOffsetFollowThePreviousRangeOfTheSameURI() throws {
        let playlist = try media([
            "#EXTM3U",
            "#EXT-X-BYTERANGE:1000@0", "#EXTINF:1,", "all.ts",
            "#EXT-X-BYTERANGE:2000", "#EXTINF:1,", "all.ts",
            "#EXT-X-BYTERANGE:500@100", "#EXTINF:1,", "other.ts",
            "#EXT-X-BYTERANGE:300", "#EXTINF:1,", "all.ts",
            "#EXT-X-BYTERANGE:7", "#EXTINF:1,", "other.ts",
            "#EXTINF:1,", "whole.ts",
        ])
        #expect(playlist.segments.map(\.byteRange) == [
            HLSByteRange(offset: 0, length: 1000), HLSByteRange(offset: 1000, length: 2000), HLSByteRange(offset: 100, length: 500),
            HLSByteRange(offset: 3000, length: 300), HLSByteRange(offset: 600, length: 7), nil,
        ])
        #expect(playlist.segments[1].byteRange?.httpRange == "bytes=1000-2999")
        #expect(error(["#EXTM3U", "#EXTINF:1,", "a.ts", "#EXT-X-BYTERANGE:10", "#EXTINF:1,", "b.ts"])
                == .byteRangeWithoutStart(line: 4))
        #expect(error(["#EXTM3U", "#EXT-X-BYTERANGE:0@5", "#EXTINF:1,", "a.ts"])
                == .badValue(tag: "EXT-X-BYTERANGE", line: 2, detail: #"range "0@5" is not LENGTH[@OFFSET]"#))
    }

    @Test func keysApplyUntilTheNextKeyWithExplicitOrSequenceNumberIVs() throws {
        let playlist = try media([
            "#EXTM3U",
            "#EXT-X-MEDIA-SEQUENCE:258",
            "#EXTINF:1,", "clear.ts",
            #"#EXT-X-KEY:METHOD=AES-128,URI="keys/one.key",IV=0x000102030405060708090A0B0C0D0E0F"#,
            "#EXTINF:1,", "a.ts",
            "#EXTINF:1,", "b.ts",
            #"#EXT-X-KEY:METHOD=AES-128,URI="https://keys.test/two?id=2""#,
            "#EXTINF:1,", "c.ts",
            "#EXTINF:1,", "d.ts",
            #"#EXT-X-KEY:METHOD=AES-128,URI="k3",IV=0xff"#,
            "#EXTINF:1,", "e.ts",
            "#EXT-X-KEY:METHOD=NONE",
            "#EXTINF:1,", "f.ts",
        ])
        let keys = playlist.segments.map(\.key)
        let explicit: [UInt8] = Array(0...15)
        #expect(keys[0] == nil)
        #expect(keys[1] == HLSKey(method: .aes128, uri: "http://media.test/vod/keys/one.key",
                                  url: try url("http://media.test/vod/keys/one.key"), iv: explicit, hasExplicitIV: true))
        #expect(keys[2]?.iv == explicit)
        #expect(keys[3]?.url == (try url("https://keys.test/two?id=2")))
        // Sequence numbers 261 and 262 (0x105, 0x106), big-endian in 16 bytes.
        #expect(keys[3]?.iv == [UInt8](repeating: 0, count: 14) + [0x01, 0x05])
        #expect(keys[3]?.hasExplicitIV == false)
        #expect(keys[4]?.iv == [UInt8](repeating: 0, count: 14) + [0x01, 0x06])
        #expect(keys[5]?.iv == [UInt8](repeating: 0, count: 15) + [0xFF])
        #expect(keys[6] == nil)
        #expect(playlist.segments.allSatisfy { $0.key?.isSupported ?? true })
        #expect(!playlist.usesSampleAES && !playlist.usesUnsupportedEncryption)
        #expect(HLSKey.iv(forSequenceNumber: UInt64.max) == [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8))
    }

    @Test func badKeysAreRefusedWithTheirLine() {
        #expect(error(["#EXTM3U", "#EXT-X-KEY:METHOD=AES-128", "#EXTINF:1,", "a.ts"])
                == .missingAttribute(tag: "EXT-X-KEY", name: "URI", line: 2))
        #expect(error(["#EXTM3U", #"#EXT-X-KEY:METHOD=AES-256,URI="k""#, "#EXTINF:1,", "a.ts"])?.description
                == #"HLS playlist line 2: #EXT-X-KEY METHOD "AES-256" is not NONE, AES-128, SAMPLE-AES or SAMPLE-AES-CTR"#)
        #expect(error(["#EXTM3U", #"#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x"# + String(repeating: "0", count: 33), "#EXTINF:1,", "a.ts"])
                == .badValue(tag: "EXT-X-KEY", line: 2, detail: #"IV="0x000000000000000000000000000000000" is not a 128-bit 0x-hexadecimal number"#))
        #expect(error(["#EXTM3U", #"#EXT-X-KEY:METHOD=AES-128,URI="file:///etc/key""#, "#EXTINF:1,", "a.ts"])
                == .unresolvableURI(uri: "file:///etc/key", line: 2, reason: #"url scheme "file" is not http or https"#))
    }

    @Test func sampleAESParsesAndIsReportedAsUnsupported() throws {
        let playlist = try media([
            "#EXTM3U",
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key-id",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#,
            "#EXTINF:1,", "a.ts",
            "#EXT-X-ENDLIST",
        ])
        #expect(playlist.usesSampleAES)
        #expect(playlist.usesUnsupportedEncryption)
        #expect(playlist.segments[0].key?.method == .sampleAES)
        #expect(playlist.segments[0].key?.url == nil)
        #expect(playlist.segments[0].key?.uri == "skd://key-id")
        #expect(playlist.segments[0].key?.keyFormat == "com.apple.streamingkeydelivery")
    }

    @Test func anIdentityKeyIsPreferredOverAnotherFormatForTheSameSegments() throws {
        let playlist = try media([
            "#EXTM3U",
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://x",KEYFORMAT="com.apple.streamingkeydelivery""#,
            #"#EXT-X-KEY:METHOD=AES-128,URI="plain.key""#,
            "#EXTINF:1,", "a.ts",
        ])
        #expect(playlist.segments[0].key?.method == .aes128)
        #expect(playlist.segments[0].key?.isSupported == true)
    }

    @Test func mapAppliesToTheFollowingSegmentsAndMakesThemFragmentedMP4() throws {
        let playlist = try media([
            "#EXTM3U",
            "#EXT-X-VERSION:7",
            #"#EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0""#,
            "#EXTINF:2,", "seg0.m4s",
            "#EXTINF:2,", "seg1.m4s",
            "#EXT-X-DISCONTINUITY",
            #"#EXT-X-KEY:METHOD=AES-128,URI="k.key""#,
            #"#EXT-X-MAP:URI="https://cdn.test/init2.mp4""#,
            "#EXTINF:2,", "seg2.m4s",
            "#EXT-X-ENDLIST",
        ])
        let first = HLSMap(url: try url("http://media.test/vod/init.mp4"), byteRange: HLSByteRange(offset: 0, length: 720))
        #expect(playlist.segments.map(\.map) == [
            first, first,
            HLSMap(url: try url("https://cdn.test/init2.mp4"), key: HLSKey(
                method: .aes128, uri: "http://media.test/vod/k.key", url: try url("http://media.test/vod/k.key"),
                iv: HLSKey.iv(forSequenceNumber: 2), hasExplicitIV: false)),
        ])
        #expect(playlist.segmentFormat == .fragmentedMP4)
    }

    @Test(arguments: [
        ([], true),
        (["#EXT-X-PLAYLIST-TYPE:EVENT"], true),
        (["#EXT-X-ENDLIST"], false),
        (["#EXT-X-PLAYLIST-TYPE:EVENT", "#EXT-X-ENDLIST"], false),
        (["#EXT-X-PLAYLIST-TYPE:VOD"], false),
    ])
    func liveMeansNoEndListAndNotVOD(tags: [String], live: Bool) throws {
        let playlist = try media(["#EXTM3U", "#EXTINF:1,", "a.ts"] + tags)
        #expect(playlist.isLive == live)
    }

    // MARK: Refusals

    @Test func textThatIsNotAPlaylistIsRefused() throws {
        #expect(error(["<html><body>Not found</body></html>"])?.description
                == #"not an HLS playlist: the first line is "<html><body>Not found</body></html>", not #EXTM3U"#)
        #expect(error([""]) == .notAPlaylist(firstLine: ""))
        #expect(throws: HLSPlaylistError.notUTF8) { try HLSPlaylist.parse([0x23, 0x45, 0xFF, 0xFE], url: base) }
        #expect(error(["#EXTM3U", "#EXT-X-ENDLIST"])?.description == "HLS media playlist lists no segments")
        #expect(error(["#EXTM3U", "a.ts"]) == .noSegments, "a line without its #EXTINF is skipped")
        #expect(error(["#EXTM3U", "#EXTINF:abc,", "a.ts"])
                == .badValue(tag: "EXTINF", line: 2, detail: #"duration "abc" is not a number of seconds"#))
        #expect(error(["#EXTM3U", "#EXTINF:1,", "a.ts", "#EXT-X-STREAM-INF:BANDWIDTH=1", "v.m3u8"]) == .mixedPlaylist(line: 4))
        #expect(error(["#EXTM3U", "#EXTINF:1,", "ftp://files.test/a.ts"])?.description
                == #"HLS playlist line 3: URI "ftp://files.test/a.ts" does not resolve to a fetchable URL (url scheme "ftp" is not http or https)"#)
        #expect(error(["#EXTM3U", "#EXTINF:1,", "a.ts", "#EXT-X-MEDIA-SEQUENCE:3", "#EXTINF:1,", "b.ts"])
                == .badValue(tag: "EXT-X-MEDIA-SEQUENCE", line: 4, detail: "comes after the first segment"))
        // Terminal escapes in a quoted excerpt are neutralised.
        #expect(error(["\u{1B}[2Jevil"]) == .notAPlaylist(firstLine: "?[2Jevil"))
    }

    /// What hls.js and yt-dlp read, and vodapp refused for good (exit 69), from real services'
    /// playlists: every line ending; comments and blank lines before #EXTM3U; a decimal BANDWIDTH;
    /// junk lines; a negative media sequence; a last #EXTINF with no URI; #EXT-X-GAP segments,
    /// listed but not there, are skipped and still counted in the media sequence.
    @Test func playlistsAreReadAsPlayersReadThem() throws {
        let lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXTINF:2,", "a.ts", "#EXTINF:2,", "b.ts", "#EXT-X-ENDLIST"]
        for ending in ["\n", "\r\n", "\r"] {
            let playlist = try #require(try HLSPlaylist.parse(text: lines.joined(separator: ending) + ending, url: base).media)
            #expect(playlist.segments.map(\.url.absoluteString) == ["http://media.test/vod/a.ts", "http://media.test/vod/b.ts"],
                    "\(ending.debugDescription)")
        }
        #expect(try media(["", "# made by an encoder", "#EXTM3U", "#EXTINF:2,", "a.ts"]).segments.count == 1)
        #expect(error(["#EXT-X-VERSION:3", "#EXTM3U", "#EXTINF:2,", "a.ts"]) == .notAPlaylist(firstLine: "#EXT-X-VERSION:3"))

        let master = try #require(try parse(["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1234.5,AVERAGE-BANDWIDTH=1000.2", "v.m3u8"]).master)
        #expect(master.variants.map(\.bandwidth) == [1235])
        #expect(master.variants.map(\.averageBandwidth) == [1001])

        #expect(try media(["#EXTM3U", "#EXTINF:2,", "a.ts", "junk the server left", "#EXTINF:2,", "b.ts"]).segments.count == 2)
        #expect(try media(["#EXTM3U", "#EXT-X-MEDIA-SEQUENCE:-3", "#EXTINF:2,", "a.ts"]).segments.map(\.sequenceNumber) == [0])
        #expect(try media(["#EXTM3U", "#EXTINF:2,", "a.ts", "#EXTINF:2,"]).segments.count == 1)

        let gapped = try media(["#EXTM3U", "#EXT-X-MEDIA-SEQUENCE:10", "#EXTINF:2,", "a.ts", "#EXT-X-GAP", "#EXTINF:2,", "missing.ts",
                                "#EXTINF:2,", "c.ts"])
        #expect(gapped.segments.map(\.url.absoluteString) == ["http://media.test/vod/a.ts", "http://media.test/vod/c.ts"])
        #expect(gapped.segments.map(\.sequenceNumber) == [10, 12])
    }

    @Test func playlistsLargerThanOneMebibyteAreRefusedBeforeParsing() {
        let padding = String(repeating: "# padding\n", count: 110_000)
        let text = "#EXTM3U\n#EXTINF:1,\na.ts\n" + padding
        #expect(throws: HLSPlaylistError.tooLarge(bytes: text.utf8.count, limit: 1 << 20)) {
            try HLSPlaylist.parse(text: text, url: base)
        }
        #expect(throws: HLSPlaylistError.tooLarge(bytes: text.utf8.count, limit: 1 << 20)) {
            try HLSPlaylist.parse([UInt8](text.utf8), url: base)
        }
        #expect(HLSPlaylistError.tooLarge(bytes: text.utf8.count, limit: 1 << 20).description
                == "HLS playlist is 1100024 bytes, more than the 1.0 MiB vodapp reads")
    }

    @Test func moreThanTwentyThousandSegmentsOrAThousandVariantsAreRefused() throws {
        let segments = "#EXTM3U\n" + String(repeating: "#EXTINF:1,\na.ts\n", count: 20_001)
        #expect(throws: HLSPlaylistError.tooManySegments(limit: 20_000)) { try HLSPlaylist.parse(text: segments, url: base) }
        let exactly = "#EXTM3U\n" + String(repeating: "#EXTINF:1,\na.ts\n", count: 20_000)
        #expect(try HLSPlaylist.parse(text: exactly, url: base).media?.segments.count == 20_000)
        // A caller's lower limit (what a delivery has left) is met the same way.
        #expect(throws: HLSPlaylistError.tooManySegments(limit: 300)) { try HLSPlaylist.parse(text: exactly, url: base, maximumSegments: 300) }
        let variants = "#EXTM3U\n" + String(repeating: "#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", count: 1_001)
        #expect(throws: HLSPlaylistError.tooManyVariants(limit: 1_000)) { try HLSPlaylist.parse(text: variants, url: base) }
        let thousand = "#EXTM3U\n" + String(repeating: "#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", count: 1_000)
        #expect(try HLSPlaylist.parse(text: thousand, url: base).master?.variants.count == 1_000)
        #expect(HLSPlaylistError.tooManySegments(limit: 20_000).description == "HLS playlist lists more than 20000 segments")
    }

    // MARK: Choosing a variant

    private func variant(_ name: String, _ bandwidth: Int, average: Int? = nil, height: Int? = nil) throws -> HLSVariant {
        HLSVariant(url: try url("http://media.test/\(name).m3u8"), bandwidth: bandwidth, averageBandwidth: average,
                   resolution: height.map { HLSResolution(width: $0 * 16 / 9, height: $0) })
    }

    @Test func theBestVariantThatFitsIsChosen() throws {
        let variants = [try variant("low", 400_000), try variant("high", 8_000_000), try variant("mid", 2_000_000)]
        // 60 s: low 3 MB, mid 15 MB, high 60 MB; 20 MiB holds mid.
        let choice = try #require(HLSVariantChoice.choose(among: variants, duration: 60, sizeLimit: 20 << 20))
        #expect(choice.variant == variants[2])
        #expect(choice.expectedBytes == 15_000_000)
        #expect(choice.reason == .fits)
        #expect(HLSVariantChoice.choose(among: variants, duration: 60, sizeLimit: 60_000_000)?.variant == variants[1])
    }

    @Test func theLowestBandwidthIsChosenWhenNoneFits() throws {
        let variants = [try variant("mid", 2_000_000), try variant("low", 400_000), try variant("high", 8_000_000)]
        let choice = try #require(HLSVariantChoice.choose(among: variants, duration: 3600, sizeLimit: 20 << 20))
        #expect(choice.variant == variants[1])
        #expect(choice.reason == .noneKnownToFit)
        #expect(choice.expectedBytes == 180_000_000)
        // An unknown duration: nothing is known to fit.
        let unknown = try #require(HLSVariantChoice.choose(among: variants, duration: .nan, sizeLimit: 20 << 20))
        #expect(unknown.variant == variants[1])
        #expect(unknown.reason == .noneKnownToFit)
        #expect(unknown.expectedBytes == nil)
        #expect(HLSVariantChoice.choose(among: [], duration: 10, sizeLimit: 1) == nil)
    }

    @Test func averageBandwidthIsPreferredToThePeak() throws {
        // 100 s under 30 MB. By the peaks (6 and 3 Mb/s: 75 and 37.5 MB) neither fits and `b`
        // would be taken as the smaller; by the averages (2 and 2.5 Mb/s: 25 and 31.25 MB) `a` fits.
        let a = try variant("a", 6_000_000, average: 2_000_000, height: 1080)
        let b = try variant("b", 3_000_000, average: 2_500_000, height: 720)
        let choice = try #require(HLSVariantChoice.choose(among: [a, b], duration: 100, sizeLimit: 30_000_000))
        #expect(choice.variant == a)
        #expect(choice.expectedBytes == 25_000_000)
        let roomier = try #require(HLSVariantChoice.choose(among: [a, b], duration: 100, sizeLimit: 32_000_000))
        #expect(roomier.variant == b)
        // Equal averages: the higher peak, then the larger picture.
        let c = try variant("c", 6_000_000, average: 2_500_000, height: 480)
        let d = try variant("d", 6_000_000, average: 2_500_000, height: 1080)
        #expect(HLSVariantChoice.choose(among: [b, c, d], duration: 100, sizeLimit: 40_000_000)?.variant == d)
    }

    /// Variants without BANDWIDTH (0, unknown): ranked by their pictures, the largest first, and
    /// after every variant whose known rate fits.
    @Test func variantsWithoutBandwidthAreRankedByResolution() throws {
        let unknown = [try variant("p360", 0, height: 360), try variant("p1080", 0, height: 1080), try variant("p720", 0, height: 720)]
        #expect(HLSVariantChoice.choose(among: unknown, duration: 60, sizeLimit: 20 << 20)?.variant == unknown[1])
        #expect(HLSVariantChoice.choose(among: unknown, duration: 60, sizeLimit: 20 << 20, maximumHeight: 720)?.variant == unknown[2])
        let known = try variant("known", 1_000_000, height: 480)
        #expect(HLSVariantChoice.choose(among: unknown + [known], duration: 60, sizeLimit: 20 << 20)?.variant == known)
    }

    /// `--max-height`: the best that fits among variants no taller, for every cap from below the
    /// shortest to above the tallest; when all are taller, the shortest (the smallest of those).
    @Test func aHeightCapLeavesOutTallerVariants() throws {
        let variants = [try variant("p1080", 6_000_000, height: 1080), try variant("p720", 3_000_000, height: 720),
                        try variant("p720low", 2_000_000, height: 720), try variant("p360", 800_000, height: 360),
                        try variant("audio", 64_000)]
        for cap in [100, 359, 360, 361, 719, 720, 721, 1079, 1080, 5000] {
            let choice = try #require(HLSVariantChoice.choose(among: variants, duration: 60, sizeLimit: 1 << 40, maximumHeight: cap))
            // Room for all: the best no taller than the cap; with every picture taller, the
            // shortest (360), not the audio-only variant, whose height is not known.
            let expected = cap >= 1080 ? "p1080" : cap >= 720 ? "p720" : "p360"
            #expect(choice.variant.url.absoluteString == "http://media.test/\(expected).m3u8", "cap \(cap)")
        }
        // Under the cap, the size limit still decides: 20 MiB in 60 s holds 2 Mb/s, not 3.
        let fitted = HLSVariantChoice.choose(among: variants, duration: 60, sizeLimit: 20 << 20, maximumHeight: 720)
        #expect(fitted?.variant.url.absoluteString == "http://media.test/p720low.m3u8")
        #expect(HLSVariantChoice.choose(among: variants, duration: 60, sizeLimit: 1 << 40)?.variant == variants[0])
    }

    // MARK: AES-128

    @Test(.enabled(if: isInstalled("openssl"), "needs openssl")) func aes128SegmentsEncryptedByOpenSSLDecrypt() async throws {
        let scratch = try ScratchDirectory("vodapp-hls-aes")
        let key: [UInt8] = (0..<16).map { UInt8($0 * 7 + 3) }
        let iv = HLSKey.iv(forSequenceNumber: 12_345)
        for size in [0, 1, 15, 16, 17, 188 * 1000 + 5] {
            let clear: [UInt8] = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
            let input = scratch.child("clear-\(size)")
            let output = scratch.child("sealed-\(size)")
            #expect(FileManager.default.createFile(atPath: input, contents: Data(clear)))
            let openssl = try await runTool("/usr/bin/openssl", ["enc", "-aes-128-cbc", "-K", hex(key), "-iv", hex(iv), "-in", input, "-out", output])
            #expect(openssl.exitCode == 0, "\(openssl.stderr)")
            let sealed = try #require(ScratchDirectory.contents(output))
            #expect(sealed.count == (size / 16 + 1) * 16)
            #expect(try HLSSegmentDecryption.decrypt(sealed, key: key, iv: iv) == clear)
            var wrongKey = key
            wrongKey[0] ^= 0x55
            #expect(throws: HLSSegmentDecryption.Failure.badPadding) { try HLSSegmentDecryption.decrypt(sealed, key: wrongKey, iv: iv) }
        }
    }

    @Test func decryptionSaysWhatIsWrong() {
        #expect(throws: HLSSegmentDecryption.Failure.keyNotSixteenBytes(count: 32)) {
            try HLSSegmentDecryption.decrypt([UInt8](repeating: 0, count: 16), key: [UInt8](repeating: 1, count: 32), iv: HLSKey.iv(forSequenceNumber: 0))
        }
        #expect(throws: HLSSegmentDecryption.Failure.notWholeBlocks(count: 20)) {
            try HLSSegmentDecryption.decrypt([UInt8](repeating: 0, count: 20), key: [UInt8](repeating: 1, count: 16), iv: HLSKey.iv(forSequenceNumber: 0))
        }
        #expect(HLSSegmentDecryption.Failure.keyNotSixteenBytes(count: 32).description == "the key is not 16 bytes (the key URL served 32 bytes)")
        #expect(HLSSegmentDecryption.Failure.badPadding.description == "the segment does not decrypt (wrong key?)")
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
