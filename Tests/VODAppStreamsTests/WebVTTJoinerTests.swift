import Testing
import VODAppStreams

/// WebVTT segments joined into the one file a player loads beside the video: one header, the
/// cues once each, on the video file's timeline.
@Suite struct WebVTTJoinerTests {
    private func join(_ segments: [String], offsets: [Double]? = nil, zero: Double = 0, limit: Int = WebVTTJoiner.defaultLimit) throws -> String {
        let parts = segments.enumerated().map { index, text in WebVTTJoiner.Segment(Array(text.utf8), offset: offsets?[index] ?? 0) }
        return String(decoding: try WebVTTJoiner.join(parts, zero: zero, limit: limit), as: UTF8.self)
    }

    /// Apple's segments: each with its own header and X-TIMESTAMP-MAP (the media's clock at
    /// 10 s), a cue repeated across the boundary, notes and identifiers. The MPEG-TS video starts
    /// at 10 s, which is the file's zero: the cues keep their local times.
    @Test func segmentsWithATimestampMapLandOnTheFilesTimeline() throws {
        let first = """
            WEBVTT
            X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000

            NOTE made by a packager

            1
            00:00:01.000 --> 00:00:02.500 align:start
            Hello

            2
            00:00:05.000 --> 00:00:07.000
            Across the <i>boundary</i>
            two lines
            """
        let second = """
            WEBVTT
            X-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:900000

            2
            00:00:05.000 --> 00:00:07.000
            Across the <i>boundary</i>
            two lines

            3
            00:00:08.250 --> 00:00:09.000
            Bye
            """
        #expect(try join([first, second], zero: 10) == """
            WEBVTT

            00:00:01.000 --> 00:00:02.500 align:start
            Hello

            00:00:05.000 --> 00:00:07.000
            Across the <i>boundary</i>
            two lines

            00:00:08.250 --> 00:00:09.000
            Bye


            """)
    }

    /// The map and the file's zero differ (the video's first frame at 11.4 s): cues move back.
    @Test func theFilesZeroMovesCuesBack() throws {
        let segment = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:1026000,LOCAL:00:00:00.000\n\n00:00:03.000 --> 00:00:04.000\nA\n"
        // 1026000 / 90000 = 11.4; zero 11.0: 0.4 s later than local.
        #expect(try join([segment], zero: 11).contains("00:00:03.400 --> 00:00:04.400\nA\n"))
        // A LOCAL of 10 s means the media's 11.4 s is the cue time 10 s.
        let local = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:1026000,LOCAL:00:00:10.000\n\n00:00:13.000 --> 00:00:14.000\nB\n"
        #expect(try join([local], zero: 1.4).contains("00:00:13.000 --> 00:00:14.000\nB\n"))
    }

    /// Without a map, a cue's time is the stream's own; a DASH period's segments move by the
    /// period's start. A cue that ends before the file starts goes; one that begins before it
    /// starts at 0.
    @Test func withoutAMapTheOffsetMovesCuesAndWhatEndsBeforeZeroGoes() throws {
        let period = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nSecond period\n"
        #expect(try join([period], offsets: [30]).contains("00:00:31.000 --> 00:00:32.000\nSecond period\n"))
        let early = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000\nGone\n\n00:00:04.000 --> 00:00:06.000\nCut\n"
        let joined = try join([early], zero: 5)
        #expect(!joined.contains("Gone"))
        #expect(joined.contains("00:00:00.000 --> 00:00:01.000\nCut\n"))
    }

    /// What packagers and servers do to text: CRLF and lone CR line ends, a BOM, invalid UTF-8
    /// and NUL, a header on `WEBVTT - title`. The file that comes out is clean text.
    @Test func lineEndsBOMAndBadBytesAreReadAndCleaned() throws {
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("WEBVTT - a film\r\n\r\n00:01.000 --> 00:02.000\r\nBad ".utf8)
        bytes += [0xFF, 0x00] + Array("byte\r\rline\rtwo\r".utf8)
        let joined = String(decoding: try WebVTTJoiner.join([WebVTTJoiner.Segment(bytes)]), as: UTF8.self)
        #expect(joined == "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nBad \u{FFFD}\u{FFFD}byte\n\n")
        // `line two` follows a blank line without a timing line: not a cue, skipped.
        #expect(!joined.contains("\r"))
    }

    @Test func styleAndRegionBlocksOfTheFirstSegmentStayBeforeTheCues() throws {
        let first = "WEBVTT\n\nSTYLE\n::cue { color: yellow }\n\nREGION\nid:top\n\n00:00:01.000 --> 00:00:02.000 region:top\nA\n"
        let second = "WEBVTT\n\nSTYLE\n::cue { color: red }\n\n00:00:03.000 --> 00:00:04.000\nB\n"
        #expect(try join([first, second]) == """
            WEBVTT

            STYLE
            ::cue { color: yellow }

            REGION
            id:top

            00:00:01.000 --> 00:00:02.000 region:top
            A

            00:00:03.000 --> 00:00:04.000
            B


            """)
    }

    @Test func cuesComeOutSortedByStart() throws {
        let text = "WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nlater\n\n00:00:01.000 --> 00:00:09.000\nearlier\n"
        let joined = try join([text])
        let earlier = try #require(joined.range(of: "earlier"))
        let later = try #require(joined.range(of: "later\n"))
        #expect(earlier.lowerBound < later.lowerBound)
    }

    @Test func aSegmentThatIsNotWebVTTIsRefusedByNumber() {
        #expect(throws: WebVTTJoiner.Failure.notWebVTT(segment: 2)) {
            try join(["WEBVTT\n", "<html>a login page</html>"])
        }
        #expect(throws: WebVTTJoiner.Failure.notWebVTT(segment: 1)) { try join(["WEBVTTX\n"]) }
        #expect(throws: WebVTTJoiner.Failure.notWebVTT(segment: 1)) { try join([""]) }
    }

    /// The limit is on the file that comes out, to the byte.
    @Test func theLimitIsTheOutputsSizeExactly() throws {
        let text = "WEBVTT\n\nSTYLE\n::cue {}\n\n00:00:01.000 --> 00:00:02.000 align:start\nA\nB\n\n100:00:00.000 --> 100:00:01.000\n\n"
        let whole = try WebVTTJoiner.join([WebVTTJoiner.Segment(Array(text.utf8))])
        #expect(try WebVTTJoiner.join([WebVTTJoiner.Segment(Array(text.utf8))], limit: whole.count) == whole)
        #expect(throws: WebVTTJoiner.Failure.tooLarge(limit: whole.count - 1)) {
            try WebVTTJoiner.join([WebVTTJoiner.Segment(Array(text.utf8))], limit: whole.count - 1)
        }
    }

    @Test func cuesPastTheLimitAreRefused() {
        let many = "WEBVTT\n\n" + (0..<200).map { "00:00:\(String(format: "%02d", $0 % 60)).000 --> 00:01:00.000\nline \($0)\n" }.joined(separator: "\n")
        #expect(throws: WebVTTJoiner.Failure.tooLarge(limit: 1000)) { try join([many], limit: 1000) }
    }

    private func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(Array(text.utf8)) }

    @Test func timestampsReadAsTheFormatWritesThem() {
        #expect(WebVTTJoiner.milliseconds(bytes("01:02:03.004")) == 3_723_004)
        #expect(WebVTTJoiner.milliseconds(bytes("02:03.004")) == 123_004)
        #expect(WebVTTJoiner.milliseconds(bytes("100:00:00.000")) == 360_000_000)
        for bad in ["1:02.000", "00:60.000", "00:02.00", "00:02,000", "+1:00:00.000", "00:-1.000", "", "a:bc.def", "1:00:00:00.000"] {
            #expect(WebVTTJoiner.milliseconds(bytes(bad)) == nil, "\(bad)")
        }
        #expect(WebVTTJoiner.timestamp(360_000_001) == "100:00:00.001")
        #expect(WebVTTJoiner.timestamp(61_005) == "00:01:01.005")
        #expect(WebVTTJoiner.timestampMap(bytes("X-TIMESTAMP-MAP=MPEGTS:180000,LOCAL:00:00:01.000")) == 1000)
        #expect(WebVTTJoiner.timestampMap(bytes("X-TIMESTAMP-MAP=MPEGTS:-5,LOCAL:00:00:01.000")) == nil)
        #expect(WebVTTJoiner.timestampMap(bytes("X-TIMESTAMP-MAP=MPEGTS:1")) == nil)
    }

    /// Durations summed to 2^54 s (a DASH text set's hostile timeline), maps and hours at their
    /// largest: bounded to a year, never a trap.
    @Test func hugeTimesAreBoundedNotTrapped() throws {
        let cue = "WEBVTT\n\n999999999:00:00.000 --> 999999999:59:59.999\nFar\n"
        let far = try join([cue], offsets: [2 * 9_007_199_254_740_992])
        #expect(far.contains("Far"))
        let mapped = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:999999999999999,LOCAL:999999999:00:00.000\n\n00:00:01.000 --> 00:00:02.000\nMapped\n"
        _ = try join([mapped], zero: -1e300)
        _ = try join([mapped], zero: .nan)
        _ = try join([cue], offsets: [-.infinity])
    }

    @Test func aStopEndsTheJoinBetweenSegments() {
        var asked = 0
        #expect(throws: WebVTTJoiner.Failure.stopped) {
            try WebVTTJoiner.join([WebVTTJoiner.Segment(Array("WEBVTT\n".utf8))]) {
                asked += 1
                return true
            }
        }
        #expect(asked == 1)
    }
}
