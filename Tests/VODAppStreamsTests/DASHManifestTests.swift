import Glibc
import Testing
import VODAppDASH
import VODAppHLS
import VODAppModel
@testable import VODAppStreams

/// DASH manifests real services published (`RealManifests`), read, chosen from and listed as
/// vodapp lists them; and the rules of templates, timelines, ranges and durations on their own.
@Suite struct DASHManifestTests {
    private func parse(_ text: String, at url: String = "https://media.test/vod/manifest.mpd") throws -> DASHManifest {
        try DASHManifestParser.parse(Array(text.utf8), url: try MediaURL(url))
    }

    private func presentation(_ text: String, at url: String = "https://media.test/vod/manifest.mpd") throws -> DASHPresentation {
        try DASHPresentation.make(try parse(text, at: url)).get()
    }

    private func refusal(_ text: String) throws -> String? {
        if case .failure(let refusal) = DASHPresentation.make(try parse(text)) { return refusal.reason }
        return nil
    }

    /// The segments of a variant's (or rendition's) track, all periods, as the item lists them.
    private func segments(_ track: DASHPresentation.Track?, limit: Int = 20_000) throws -> HLSMediaPlaylist {
        let listed = try DASHTrackSegments(try #require(track), limit: limit)
        #expect(listed.needed.isEmpty, "a track needing its index read")
        return listed.playlist(url: try MediaURL("https://media.test/vod/manifest.mpd"))
    }

    // MARK: - Live and DRM

    @Test func liveManifestsAreRefusedAsLive() throws {
        for live in [RealManifests.shakaLiveMultiPeriod, RealManifests.orangeLiveDRM, RealManifests.dashifLiveNumber,
                     RealManifests.youtubeLiveSegmentList] {
            #expect(try parse(live).isDynamic)
            #expect(try refusal(live) == "the DASH manifest is live (type=\"dynamic\"): only finished videos (VOD) can be downloaded")
        }
    }

    @Test func protectedStreamsAreRefusedAsDRM() throws {
        for protected in [RealManifests.ytdlpClearKeyCENC, RealManifests.ytdlpDashSEA, RealManifests.ytdlpW3CPSSH] {
            #expect(try refusal(protected) == "the DASH streams are encrypted (DRM: ContentProtection), which vodapp cannot decrypt")
        }
        // Read all the same: the protection is the one reason.
        let cenc = try parse(RealManifests.ytdlpClearKeyCENC)
        let video = try #require(cenc.periods.first?.adaptationSets.first { $0.kind == .video })
        #expect(video.representations.map(\.height) == [288, 360, 480, 720, 1080])
        #expect(video.representations.allSatisfy { $0.isProtected })
    }

    // MARK: - Templates

    @Test func aNumberTemplateWithAFractionalDurationStartingAtZero() throws {
        // 6014 s in 2 s segments, `duration="2000000.0"`, `startNumber="0"`: 3007, numbered 0-3006.
        let dash = try presentation(RealManifests.youtubedlFloatDuration)
        #expect(dash.variants.count == 6)
        #expect(dash.duration == 6014)
        let highest = try #require(dash.variants.max { $0.bandwidth < $1.bandwidth })
        #expect(highest.resolution == HLSResolution(width: 1920, height: 1080))
        let video = try segments(dash.track(for: highest))
        #expect(video.segments.count == 3007)
        #expect(video.segments.first?.duration == 2)
        let first = try #require(video.segments.first?.url.absoluteString)
        let last = try #require(video.segments.last?.url.absoluteString)
        #expect(first.hasSuffix("0.mp4d") || first.contains("-0."), "\(first)")
        #expect(last.contains("3006"), "\(last)")
        #expect(video.segments.allSatisfy { $0.map != nil }, "each segment follows its representation's init section")
        // The audio's own set, one rendition, fetched beside the picture.
        #expect(dash.renditions.count == 1)
        #expect(highest.audioGroup == "audio")
    }

    @Test func aTimelineWithTimeNamesEachSegmentByItsStart() throws {
        // Unified Streaming: the template on the set, `$Time$`, BaseURL `dash/` on the period.
        let dash = try presentation(RealManifests.ytdlpSubtitles, at: "https://cdn.test/video/manifest.mpd")
        #expect(dash.variants.map(\.resolution?.height).sorted { ($0 ?? 0) < ($1 ?? 0) } == [144, 240, 360, 480, 720])
        let highest = try #require(dash.variants.max { $0.bandwidth < $1.bandwidth })
        let video = try segments(dash.track(for: highest))
        #expect(video.segments.count == 444)
        #expect(abs(video.duration - 888) < 0.01, "\(video.duration)")
        #expect(video.segments.allSatisfy { $0.url.absoluteString.hasPrefix("https://cdn.test/video/dash/") })
        // Consecutive segments' names differ by their starts: each is its predecessor's end.
        let times = video.segments.prefix(3).map(\.url.absoluteString)
        #expect(Set(times).count == 3, "\(times)")
        let audio = try segments(dash.track(for: try #require(dash.renditions.first)))
        #expect(audio.segments.count == 445)
        // The TTML set is text, not audio or video: not offered.
        #expect(try parse(RealManifests.ytdlpSubtitles).periods[0].adaptationSets.contains { $0.kind == .text })
    }

    @Test func anOpenEndedRepeatRunsToThePeriodsEnd() throws {
        // `r="-1"`, no `t`: 654 s of 94208-unit segments, 334; sound alone, so its
        // representations are the variants.
        let dash = try presentation(RealManifests.elephantsDreamOpenEndedTimeline)
        #expect(dash.renditions.isEmpty && dash.soundRendition != nil)
        let audio = try segments(dash.track(for: try #require(dash.variants.first)))
        #expect(audio.segments.count == 334)
    }

    @Test func aTemplateOnTheSetWithNumbersAndTheRepresentationsOwnNames() throws {
        let dash = try presentation(RealManifests.dashjsBigBuckBunny)
        #expect(dash.variants.count == 10)
        #expect(dash.renditions.map(\.language) == ["spa"])
        for variant in dash.variants {
            #expect(try segments(dash.track(for: variant)).segments.count == 159)
        }
        // The audio counts: 634.6 s of the lowest video (254 kb/s) with its sound (67 kb/s) is
        // 25.5 MB, over 20 MiB; under 30 MiB it fits, and the next one up (507 kb/s) does not.
        let tight = try #require(HLSVariantChoice.choose(among: dash.variants, duration: dash.duration, sizeLimit: 20 << 20))
        #expect(tight.reason == .noneKnownToFit)
        #expect(tight.variant.bandwidth == 254_320 + 67_071, "the video's rate and the audio's: \(tight.variant.bandwidth)")
        let roomier = try #require(HLSVariantChoice.choose(among: dash.variants, duration: dash.duration, sizeLimit: 30 << 20))
        #expect(roomier.reason == .fits && roomier.variant.bandwidth == 254_320 + 67_071)
    }

    @Test func templatesBeyondTheSegmentLimitFailBeforeListing() throws {
        let dash = try presentation(RealManifests.youtubedlFloatDuration)
        let track = try #require(dash.track(for: dash.variants[0]))
        #expect(throws: DASHManifestError.tooManySegments(count: 3007, limit: 3000)) { try DASHTrackSegments(track, limit: 3000) }
        // Billions described by a few bytes cost nothing to refuse.
        let huge = DASHSegmentTemplate(media: "$Number$.m4s", duration: 1)
        #expect(throws: DASHManifestError.self) {
            try huge.segments(representation: "v", bandwidth: 1, base: try MediaURL("https://media.test/"), periodDuration: 1e12, limit: 20_000)
        }
        let repeated = DASHSegmentTemplate(media: "$Time$.m4s", timeline: [.init(t: 0, d: 1, r: Int64.max - 1), .init(d: 1, r: 5)])
        #expect(throws: DASHManifestError.self) {
            try repeated.segments(representation: "v", bandwidth: 1, base: try MediaURL("https://media.test/"), periodDuration: nil, limit: 20_000)
        }
    }

    @Test func identifiersAndTheirFormats() throws {
        let fixed = ["RepresentationID": "video=1", "Bandwidth": "250000"]
        #expect(try DASHSegmentTemplate.expand("$RepresentationID$/$Number%05d$.m4s", fixed: fixed, number: 42, time: 0) == "video=1/00042.m4s")
        #expect(try DASHSegmentTemplate.expand("t$Time$-$Bandwidth$$$.m4s", fixed: fixed, number: 1, time: 90_000) == "t90000-250000$.m4s")
        #expect(try DASHSegmentTemplate.expand("$Number%x$", fixed: fixed, number: 255, time: 0) == "ff")
        for bad in ["$Nope$", "$Number", "$Number%5q$", "$SubNumber$"] {
            #expect(throws: DASHManifestError.self, "\(bad)") { try DASHSegmentTemplate.expand(bad, fixed: fixed, number: 1, time: 0) }
        }
    }

    // MARK: - Lists and indexes

    @Test func aListOfRangesOfOneFileWithItsSoundMuxedIn() throws {
        let dash = try presentation(RealManifests.ytdlpURLsWithRanges)
        #expect(dash.variants.count == 1)
        #expect(dash.variants[0].audioGroup == nil, "avc3 and mp4a in one representation: its own sound plays")
        let list = try segments(dash.track(for: dash.variants[0]))
        #expect(list.segments.count == 5)
        #expect(list.segments.filter { $0.byteRange != nil }.count == 4)
        #expect(list.segments[0].map?.byteRange == HLSByteRange(offset: 0, length: 1000))
        // A byte the ranges skip stays skipped; the last, without a range, is its whole file.
        #expect(list.segments[2].byteRange == HLSByteRange(offset: 200_001, length: 99_999))
        #expect(list.segments[4].byteRange == nil && list.segments[4].url.absoluteString.contains("/2/432f65a0.m4s"))
        #expect(list.segments[0].url.absoluteString.hasPrefix("https://media.test/vd_5999c902ea707c67d8e267a9_1503250723/"))
    }

    @Test func aListOfRangesWithoutURLsIsOfTheRepresentationsFile() throws {
        let dash = try presentation(RealManifests.youtubedlRangeOnly, at: "https://media.test/gpac/manifest.mpd")
        let video = try segments(dash.track(for: dash.variants[0]))
        #expect(video.segments.count == 4)
        let files = Set(video.segments.map(\.url.absoluteString) + [try #require(video.segments[0].map?.url.absoluteString)])
        #expect(files.count == 1, "\(files)")
        #expect(video.segments.allSatisfy { $0.byteRange != nil })
    }

    @Test func aSingleFileIsListedByItsIndexAndWebMIsLeftOut() throws {
        let dash = try presentation(RealManifests.youtubeOnDemandFull)
        let mp4 = try #require(dash.variants.first { $0.codecs.first?.hasPrefix("avc1") == true && $0.resolution?.height == 1080 })
        let track = try #require(dash.track(for: mp4))
        let listed = try DASHTrackSegments(track, limit: 20_000)
        #expect(listed.needed.count == 1)
        #expect(listed.needed.first?.initialization?.range?.offset == 0)
        // The VP9 half of YouTube's representations is WebM: not offered.
        #expect(dash.variants.count == 6 && dash.variants.allSatisfy { $0.codecs.first?.hasPrefix("avc1") == true })
        // Shaka's Angel One is WebM throughout: refused before a segment is fetched.
        #expect(try refusal(RealManifests.shakaAngelOne) == "the DASH streams are WebM (VP9, Opus), which vodapp does not make into an MP4")
    }

    @Test func aSegmentIndexListsRangesAfterItself() throws {
        // A version-0 sidx of two references, 100 and 200 bytes, 1 s each at 1000 units.
        var box: [UInt8] = [0, 0, 0, 0] + Array("sidx".utf8) + [0, 0, 0, 0] + [0, 0, 0, 1] + [0, 0, 0x03, 0xE8]
        box += [0, 0, 0, 0] + [0, 0, 0, 4] + [0, 0] + [0, 2]
        box += [0, 0, 0, 100] + [0, 0, 0x03, 0xE8] + [0x90, 0, 0, 0]
        box += [0, 0, 0, 200] + [0, 0, 0x03, 0xE8] + [0x90, 0, 0, 0]
        box[3] = UInt8(box.count)
        let url = try MediaURL("https://media.test/video.mp4")
        let segments = try DASHSegmentIndex.segments(in: box, at: 800, of: url, limit: 10)
        // After the box (800 + 56), 4 bytes further (first_offset).
        #expect(segments.map(\.range) == [HLSByteRange(offset: 860, length: 100), HLSByteRange(offset: 960, length: 200)])
        #expect(segments.map(\.duration) == [1, 1])
        #expect(throws: DASHSegmentIndex.Failure.tooManySegments(count: 2, limit: 1)) {
            try DASHSegmentIndex.segments(in: box, at: 800, of: url, limit: 1)
        }
        var hierarchical = box
        hierarchical[box.count - 24] |= 0x80
        #expect(throws: DASHSegmentIndex.Failure.hierarchical) { try DASHSegmentIndex.segments(in: hierarchical, at: 0, of: url, limit: 10) }
        #expect(throws: DASHSegmentIndex.Failure.truncated) { try DASHSegmentIndex.segments(in: Array(box.dropLast(5)), at: 0, of: url, limit: 10) }
        #expect(throws: DASHSegmentIndex.Failure.noIndex) { try DASHSegmentIndex.segments(in: Array("not an index".utf8), at: 0, of: url, limit: 10) }
    }

    // MARK: - Languages, roles, periods

    @Test func audioSetsBecomeRenditionsChosenByLanguageAndRole() throws {
        // Shaka's Angel One, read (its WebM is refused as a whole: see above): five languages,
        // and the protocol-relative BaseURL takes the manifest's scheme.
        let angel = try parse(RealManifests.shakaAngelOne)
        let audio = angel.periods[0].adaptationSets.filter { $0.kind == .audio }
        #expect(audio.map(\.language) == ["en", "de", "es", "fr", "it"])
        if case .indexed(let url, _, _)? = audio.first?.representations.first?.addressing {
            #expect(url.absoluteString.hasPrefix("https://shaka-player-demo.appspot.com/assets/angel_one/"), "\(url.absoluteString)")
        } else {
            Issue.record("Angel One's audio is a SegmentBase file: \(String(describing: audio.first?.representations.first?.addressing))")
        }

        // Two English sets: `main` is the default, the audio description only when asked for by label.
        let role = try presentation(RealManifests.ytdlpRole)
        #expect(role.renditions.map(\.name) == ["English", "English (Audio Description)"])
        #expect(role.renditions.map(\.isDefault) == [true, false])
        #expect(HLSAudioChoice.choose(for: role.variants[0], among: role.renditions)?.name == "English")
        // Each set's own track, though both are English.
        #expect(role.renditions.compactMap { role.track(for: $0)?.pieces.first?.representation.id } == ["10", "12"])
    }

    /// WebVTT text sets are subtitle renditions of every variant; TTML (`stpp`) is left out.
    @Test func webVTTTextSetsAreSubtitlesAndTTMLIsLeftOut() throws {
        let role = try presentation(RealManifests.ytdlpRole)
        #expect(role.subtitles.map(\.name) == ["English"])
        #expect(role.variants.allSatisfy { $0.subtitleGroup == DASHPresentation.subtitleGroup })
        let chosen = SubtitleChoice.choose(for: role.variants[0], among: role.subtitles, selection: .languages(["eng"]))
        #expect(chosen.map(\.language) == ["en"])
        let listed = try role.subtitlePlaylist(for: try #require(chosen.first), url: try MediaURL("https://media.test/vod/manifest.mpd"),
                                               limit: 100).get()
        #expect(listed.segments.map(\.url.absoluteString) == ["https://media.test/vod/subtitles.mpd"])

        #expect(try presentation(RealManifests.ytdlpSubtitles).subtitles.isEmpty)
        let angel = try parse(RealManifests.shakaAngelOne).periods[0].adaptationSets.filter { $0.kind == .text }
        #expect(angel.map(\.language) == ["en", "fr", "pt-BR", "el"])
        #expect(angel.allSatisfy { $0.representations.allSatisfy { $0.mimeType == "text/vtt" } })
    }

    /// Two English sets, the forced lines first: the dialogue is chosen, with its own file.
    @Test func ofTwoTextSetsOfALanguageTheDialogueIsChosenWithItsOwnTrack() throws {
        let manifest = """
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT10S">
              <Period>
                <AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="100000" width="160" height="90" codecs="avc1.64000d">
                  <BaseURL>v.mp4</BaseURL></Representation></AdaptationSet>
                <AdaptationSet mimeType="text/vtt" lang="en"><Role schemeIdUri="urn:mpeg:dash:role:2011" value="forced-subtitle"/>
                  <Representation id="forced" bandwidth="100"><BaseURL>en-forced.vtt</BaseURL></Representation></AdaptationSet>
                <AdaptationSet mimeType="text/vtt" lang="en"><Label>English (full)</Label>
                  <Representation id="full" bandwidth="100"><BaseURL>en.vtt</BaseURL></Representation></AdaptationSet>
                <AdaptationSet mimeType="application/mp4" codecs="wvtt" lang="de">
                  <Representation id="wvtt" bandwidth="100"><BaseURL>de.mp4</BaseURL></Representation></AdaptationSet>
              </Period>
            </MPD>
            """
        let made = try presentation(manifest)
        #expect(made.subtitles.map(\.isForced) == [true, false])
        let chosen = SubtitleChoice.choose(for: made.variants[0], among: made.subtitles, selection: .all)
        #expect(chosen.map(\.name) == ["English (full)"])
        let listed = try made.subtitlePlaylist(for: try #require(chosen.first), url: try MediaURL("https://media.test/vod/manifest.mpd"),
                                               limit: 100).get()
        #expect(listed.segments.map(\.url.absoluteString) == ["https://media.test/vod/en.vtt"])
    }

    @Test func periodsAreJoinedIntoOneTrackStartingAnewAtEach() throws {
        let package = try presentation(RealManifests.awsMediaPackageMultiPeriod)
        let video = try segments(package.track(for: package.variants[0]))
        #expect(video.segments.count == 30)
        #expect(video.segments.enumerated().filter(\.element.followsDiscontinuity).map(\.offset) == [16])
        // Each period names its init section, the same file in both: the second period's run
        // is read after it again.
        #expect(video.segments.allSatisfy { $0.map?.url.absoluteString.hasSuffix("index_video_1_0_init.mp4?m=1528413503") == true })
        #expect(video.segments[16].url.absoluteString.hasSuffix("index_video_1_0_22.mp4?m=1528413503"), "\(video.segments[16].url)")
        let audio = try segments(package.track(for: try #require(package.renditions.first)))
        #expect(audio.segments.count == 30)

        // Advertisements between programme periods, at other rates and with two audio sets.
        let tailor = try presentation(RealManifests.awsMediaTailorAdInsertion)
        let track = try #require(tailor.track(for: tailor.variants[0]))
        #expect(track.pieces.count == 7)
        let joined = try segments(track)
        #expect(joined.segments.filter(\.followsDiscontinuity).count == 6)
    }

    // MARK: - Values

    @Test func durationsAndRanges() throws {
        for (text, seconds) in [("PT3.0S", 3.0), ("PT0H12M14.000S", 734), ("P1DT1H", 90_000), ("PT1M8.952S", 68.952), ("PT0S", 0)] {
            #expect(try DASHManifestParser.duration(text, element: "MPD", name: "d") == seconds, "\(text)")
        }
        for bad in ["", "P", "3S", "PT", "PTS", "P1H", "PT1D", "PT1.2.3S"] {
            #expect(throws: DASHManifestError.self, "\(bad)") { try DASHManifestParser.duration(bad, element: "MPD", name: "d") }
        }
        #expect(try DASHManifestParser.range("828-37483", element: "SegmentURL") == HLSByteRange(offset: 828, length: 36_656))
        for bad in ["5-4", "-4", "1-", "a-b", "1-2-3", "0-9223372036854775807"] {
            #expect(throws: DASHManifestError.self, "\(bad)") { try DASHManifestParser.range(bad, element: "SegmentURL") }
        }
    }

    /// XML that is not well-formed is refused with libxml2's reason and the line it was on; a
    /// prefix nobody declared, CDATA, comments and empty elements read as a player reads them.
    @Test func malformedXMLSaysWhereAndWellFormedOddsAndEndsRead() throws {
        for (text, line) in [("<MPD>\n<Period>\n", 2), ("<MPD>\n</Period>", 2), ("<MPD type=static/>", 1), ("", 1)] {
            let error = try #require(throws: DASHManifestError.self) { try parse(text) }
            guard case .notXML(let at, let reason) = error else { Issue.record("\(error)"); continue }
            #expect(at == line, "\(text.debugDescription): \(error)")
            #expect(!reason.isEmpty, "\(text.debugDescription)")
        }
        let manifest = try parse("""
            <?xml version="1.0" encoding="UTF-8"?><!-- a comment --><MPD type="static" mediaPresentationDuration="PT4S"
              xmlns="urn:mpeg:dash:schema:mpd:2011"><BaseURL><![CDATA[ https://cdn.test/a/ ]]></BaseURL><Period><yt:Extra x="1"/>
              <AdaptationSet mimeType="video/mp4"><Representation id="v&amp;1" bandwidth="1000"><BaseURL>v.mp4</BaseURL></Representation>
              </AdaptationSet></Period></MPD>
            """)
        #expect(manifest.periods.first?.adaptationSets.first?.representations.map(\.id) == ["v&1"])
    }

    @Test func whatIsNotAManifestSaysWhy() throws {
        #expect(throws: DASHManifestError.notAManifest(root: "html")) { try parse("<html><body>Sign in</body></html>") }
        #expect(throws: DASHManifestError.self) { try parse("<MPD><Period>") }
        // An entity that would expand a billion-fold is not expanded.
        let laughs = """
            <?xml version="1.0"?><!DOCTYPE MPD [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
            <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
            <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>
            <MPD type="static"><Period><AdaptationSet><Representation id="&h;"/></AdaptationSet></Period></MPD>
            """
        // Nothing but http and https is fetched.
        #expect(throws: DASHManifestError.self) {
            try parse(#"<MPD type="static"><BaseURL>file:///etc/passwd</BaseURL><Period/></MPD>"#)
        }
        // No DTD is read at all: external entities, and expansions that stay under libxml2's
        // bounds but took 111 s (tenth attacker trial).
        #expect(throws: DASHManifestError.declaresEntities) { try parse(laughs) }
        let external = """
            <?xml version="1.0"?><!DOCTYPE MPD [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
            <MPD type="static"><Period/></MPD>
            """
        #expect(throws: DASHManifestError.declaresEntities) { try parse(external) }
        let utf16 = Array("<?xml version=\"1.0\"?><!DOCTYPE MPD><MPD/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(DASHManifestParser.declaresDTD([0xFF, 0xFE] + utf16))
        #expect(!DASHManifestParser.declaresDTD(Array(RealManifests.dashjsBigBuckBunny.utf8)))
        // Declared in an encoding libxml2 decodes, where the bytes show no `<!DOCTYPE` (UTF-7
        // writes `<!` as `<+ACE-`; EBCDIC is another alphabet): refused at libxml2's DOCTYPE
        // node, before an entity is used (eleventh attacker trial: 5 GB for a 789 KB manifest).
        let entity = #"<!DOCTYPE MPD [<!ENTITY z "zzzzzzzzzz"><!ENTITY e "&z;&z;&z;&z;">]><MPD type="static"><Period id="&e;"/></MPD>"#
        let utf7 = Array(#"<?xml version="1.0" encoding="UTF-7"?>"#.utf8)
            + Array(entity.replacingOccurrences(of: "<!", with: "<+ACE-").replacingOccurrences(of: "&", with: "+ACY-").utf8)
        #expect(!DASHManifestParser.declaresDTD(utf7))
        #expect(throws: DASHManifestError.declaresEntities) { try DASHManifestParser.parse(utf7, url: try MediaURL("https://media.test/m.mpd")) }
        let ebcdic = try Self.converted(#"<?xml version="1.0" encoding="IBM037"?>"# + entity, to: "IBM037")
        #expect(!DASHManifestParser.declaresDTD(ebcdic))
        #expect(throws: DASHManifestError.declaresEntities) { try DASHManifestParser.parse(ebcdic, url: try MediaURL("https://media.test/m.mpd")) }
    }

    /// `text` in `encoding`, as glibc's iconv writes it.
    private static func converted(_ text: String, to encoding: String) throws -> [UInt8] {
        let converter = iconv_open(encoding, "UTF-8")
        try #require(Int(bitPattern: converter) != -1, "iconv knows no \(encoding)")
        defer { iconv_close(converter) }
        var input = Array(text.utf8CString.dropLast())
        var output = [CChar](repeating: 0, count: input.count * 4)
        var inputLeft = input.count, outputLeft = output.count
        let result = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                var inputNext = inputBuffer.baseAddress, outputNext = outputBuffer.baseAddress
                return iconv(converter, &inputNext, &inputLeft, &outputNext, &outputLeft)
            }
        }
        try #require(result != -1 && inputLeft == 0, "iconv stopped at byte \(input.count - inputLeft)")
        return output.prefix(output.count - outputLeft).map { UInt8(bitPattern: $0) }
    }

    /// What the tenth attacker trial crashed vodapp with (an overflow traps), made it ask for
    /// tens of gigabytes, or held it for minutes: each is refused, at once, saying why.
    @Test(arguments: [
        // Numbers at Int64.max in templates and timelines.
        #"<SegmentTemplate startNumber="0" endNumber="9223372036854775807" duration="1" media="$Number$.m4s"/>"#,
        #"<SegmentTemplate timescale="12800" media="$Number$.m4s"><SegmentTimeline><S t="0" d="9223372036854775807" r="1"/></SegmentTimeline></SegmentTemplate>"#,
        #"<SegmentTemplate startNumber="9223372036854775807" duration="2" media="$Number$.m4s"/>"#,
        #"<SegmentTemplate endNumber="3" duration="9223372036854775807" media="$Number$.m4s"/>"#,
        #"<SegmentTemplate media="$Number$.m4s"><SegmentTimeline><S t="-9223372036854775807" d="1" r="-1"/><S t="9223372036854775807" d="1"/></SegmentTimeline></SegmentTemplate>"#,
        #"<SegmentTemplate timescale="9223372036854775807" media="$Number$.m4s"><SegmentTimeline><S t="0" d="1" r="-1"/></SegmentTimeline></SegmentTemplate>"#,
        #"<SegmentTemplate media="$Time$.m4s"><SegmentTimeline><S t="9223372036854775800" d="5" r="3"/></SegmentTimeline></SegmentTemplate>"#,
        // Largest numbers within the bounds, whose products pass Int64.
        #"<SegmentTemplate media="$Time$.m4s"><SegmentTimeline><S t="9007199254740992" d="9007199254740992" r="19999"/></SegmentTimeline></SegmentTemplate>"#,
        #"<SegmentTemplate endNumber="19999" duration="9007199254740992" media="$Time$.m4s"/>"#,
    ])
    func hostileNumbersAreRefusedNotTrapped(template: String) throws {
        let manifest = """
            <MPD type="static" mediaPresentationDuration="PT8S"><Period><AdaptationSet contentType="video">
            <Representation id="v" bandwidth="60000" width="320" height="240">\(template)</Representation>
            </AdaptationSet></Period></MPD>
            """
        let outcome = Result { () throws -> Int in
            let dash = try presentation(manifest)
            return try DASHTrackSegments(try #require(dash.track(for: dash.variants[0])), limit: 20_000).listed
        }
        if case .success(let listed) = outcome { Issue.record("listed \(listed) segments") }
    }

    @Test func hostileSizesAndRatesAreRefused() throws {
        for attributes in [#"bandwidth="9223372036854775807""#, #"bandwidth="-9223372036854775807""#, #"bandwidth="1" width="99999999999""#] {
            #expect(throws: DASHManifestError.self, "\(attributes)") {
                try parse(#"<MPD type="static"><Period><AdaptationSet contentType="video"><Representation id="v" "# + attributes + "/></AdaptationSet></Period></MPD>")
            }
        }
        #expect(throws: DASHManifestError.self) { try parse(#"<MPD type="static" mediaPresentationDuration="P99999999999999999999Y"><Period/></MPD>"#) }
        // Thousands of representations, whose choice was quadratic (214 s for 10,000).
        let many = (0..<1001).map { #"<Representation id="r\#($0)" bandwidth="1"/>"# }.joined()
        #expect(throws: DASHManifestError.tooManyRepresentations(limit: 1000)) {
            try parse(#"<MPD type="static"><Period><AdaptationSet contentType="video">"# + many + "</AdaptationSet></Period></MPD>")
        }
    }

    @Test func aListsTimelineIsReadForItsURLsAlone() throws {
        // 2,000 repeats of 100,000 each, for 3 URLs: 1.67 GB asked for before.
        let timeline = String(repeating: #"<S d="1" r="100000"/>"#, count: 2000)
        let manifest = """
            <MPD type="static"><Period><AdaptationSet contentType="video"><Representation id="v" bandwidth="1">
            <BaseURL>v.mp4</BaseURL><SegmentList><SegmentTimeline>\(timeline)</SegmentTimeline>
            <SegmentURL mediaRange="0-9"/><SegmentURL mediaRange="10-19"/><SegmentURL mediaRange="20-29"/></SegmentList>
            </Representation></AdaptationSet></Period></MPD>
            """
        let dash = try presentation(manifest)
        let list = try segments(dash.track(for: dash.variants[0]))
        #expect(list.segments.map(\.duration) == [1, 1, 1])
    }
}
