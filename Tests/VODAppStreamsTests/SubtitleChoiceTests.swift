import Testing
import VODAppHLS
import VODAppModel
import VODAppStreams

/// Which WebVTT renditions `--subtitles` fetches, on Apple's bipbop 16x9 master playlist: four
/// languages, each with a FORCED rendition beside it.
@Suite struct SubtitleChoiceTests {
    private let playlist: HLSMasterPlaylist

    init() throws {
        let url = try MediaURL("https://devstreaming.test/bipbop_16x9/bipbop_16x9_variant.m3u8")
        playlist = try #require(try HLSPlaylist.parse(text: RealPlaylists.appleBipbop16x9, url: url).master)
    }

    private func names(_ selection: SubtitleSelection, variant: Int = 0) -> [String] {
        SubtitleChoice.choose(for: playlist.variants[variant], among: playlist.renditions, selection: selection).map(\.name)
    }

    @Test func theMasterPlaylistsSubtitlesAreReadWithTheirGroupAndForcedFlag() {
        #expect(playlist.variants.allSatisfy { $0.subtitleGroup == "subs" })
        let subtitles = playlist.renditions.filter { $0.kind == .subtitles }
        #expect(subtitles.count == 8)
        #expect(subtitles.map(\.isForced) == [false, true, false, true, false, true, false, true])
        #expect(subtitles.first?.url?.absoluteString == "https://devstreaming.test/bipbop_16x9/subtitles/eng/prog_index.m3u8")
    }

    @Test func noneFetchesNothingAndAllFetchesOneOfEachLanguageNotTheForcedOnes() {
        #expect(names(.none).isEmpty)
        #expect(names(.all) == ["English", "Français", "Español", "日本語"])
    }

    @Test func languagesAreFetchedInTheOrderAskedByTheirTwoOrThreeLetterCodes() {
        #expect(names(.languages(["fr", "en"])) == ["Français", "English"])
        #expect(names(.languages(["fra", "jpn"])) == ["Français", "日本語"])
        #expect(names(.languages(["EN-us"])) == ["English"])
        #expect(names(.languages(["fre"])) == ["Français"])
        // One file per language: asking twice gives one.
        #expect(names(.languages(["en", "eng"])) == ["English"])
        #expect(names(.languages(["de"])).isEmpty)
    }

    /// A variant that names no subtitle group has none, whatever the playlist lists (players
    /// offer only the group a variant names).
    @Test func aVariantWithoutASubtitleGroupHasNone() throws {
        let url = try MediaURL("https://cdn.test/master.m3u8")
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",URI="en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="t",NAME="Deutsch",LANGUAGE="de",URI="de.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="t",NAME="Deutsch (nur Fremdsprache)",LANGUAGE="de",FORCED=YES,URI="de-forced.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="u",NAME="Italiano (forzati)",LANGUAGE="it",FORCED=YES,URI="it-forced.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="u",NAME="Senza",LANGUAGE="fi"
            #EXT-X-STREAM-INF:BANDWIDTH=1000000
            plain.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900000,SUBTITLES="t"
            t.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES="u"
            u.m3u8
            """
        let master = try #require(try HLSPlaylist.parse(text: text, url: url).master)
        #expect(SubtitleChoice.choose(for: master.variants[0], among: master.renditions, selection: .all).isEmpty)
        // Only the variant's group: not group s's English.
        #expect(SubtitleChoice.choose(for: master.variants[1], among: master.renditions, selection: .all).map(\.name) == ["Deutsch"])
        // A forced rendition is taken when it is all the language has; one without a URI never.
        #expect(SubtitleChoice.choose(for: master.variants[2], among: master.renditions, selection: .all).map(\.name) == ["Italiano (forzati)"])
        #expect(SubtitleChoice.choose(for: master.variants[2], among: master.renditions, selection: .languages(["fi"])).isEmpty)
    }

    /// What is asked for and cannot be had is said: a language not offered (naming those that
    /// are), and a second rendition of a language whose file the first takes.
    @Test func whatCannotBeHadIsSaid() throws {
        let missing = SubtitleChoice.decide(for: playlist.variants[0], among: playlist.renditions, selection: .languages(["de", "fr", "ger"]))
        #expect(missing.chosen.map(\.name) == ["Français"])
        #expect(missing.unmet == [SubtitleTrack(language: "de", name: "",
                                                error: "the stream offers no WebVTT subtitles in de (it offers en, es, fr, ja)")])

        // ffmpeg writes renditions of no LANGUAGE unless told one: two of them are one file.
        let url = try MediaURL("https://cdn.test/master.m3u8")
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="subtitle_0",URI="0.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="subtitle_1",URI="1.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en-US",URI="en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English (UK)",LANGUAGE="en-GB",URI="gb.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=900000,SUBTITLES="s"
            v.m3u8
            """
        let master = try #require(try HLSPlaylist.parse(text: text, url: url).master)
        let all = SubtitleChoice.decide(for: master.variants[0], among: master.renditions, selection: .all)
        #expect(all.chosen.map(\.name) == ["subtitle_0", "English"])
        #expect(all.unmet.map(\.language) == ["und", "en"])
        #expect(all.unmet.first?.error == "left out: one file per language, and \"subtitle_0\" is the und one")
        let undetermined = SubtitleChoice.decide(for: master.variants[0], among: master.renditions, selection: .languages(["und"]))
        #expect(undetermined.chosen.map(\.name) == ["subtitle_0"])
        #expect(SubtitleChoice.decide(for: master.variants[0], among: master.renditions, selection: .none) == .init(chosen: [], unmet: []))
    }

    /// The language goes into a file name: its two-letter code where it has one, which every
    /// player reads back; nothing of it may name a path or hide the file.
    @Test func theFileTagIsTheLanguagesShortestCodeAndNeverAPath() {
        #expect(SubtitleChoice.fileTag(language: "en-GB") == "en")
        #expect(SubtitleChoice.fileTag(language: "pt_BR") == "pt")
        #expect(SubtitleChoice.fileTag(language: "fra") == "fr")
        #expect(SubtitleChoice.fileTag(language: "ger") == "de")
        #expect(SubtitleChoice.fileTag(language: "yue-Hant") == "yue")
        // Withdrawn codes old packagers still write are the language's current one.
        #expect(SubtitleChoice.fileTag(language: "iw") == "he" && SubtitleChoice.fileTag(language: "in-ID") == "id")
        #expect(SubtitleChoice.fileTag(language: "../../etc/passwd") == "und")
        #expect(SubtitleChoice.fileTag(language: "-x-") == "und")
        #expect(SubtitleChoice.fileTag(language: "日本語") == "und")
        #expect(SubtitleChoice.fileTag(language: nil) == "und")
        #expect(SubtitleChoice.fileTag(language: "") == "und")
        #expect(SubtitleChoice.fileTag(language: String(repeating: "a", count: 100)) == "und")
    }
}
