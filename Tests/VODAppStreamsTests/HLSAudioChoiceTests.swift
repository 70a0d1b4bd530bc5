import Testing
import VODAppHLS
import VODAppModel
import VODAppStreams

/// `#EXT-X-MEDIA` renditions as parsed from real playlists, and the audio chosen for a variant.
@Suite struct HLSAudioChoiceTests {
    private let base: MediaURL

    init() throws {
        base = try MediaURL("https://devstreaming.test/bipbop/master.m3u8")
    }

    private func master(_ text: String) throws -> HLSMasterPlaylist {
        try #require(try HLSPlaylist.parse(text: text, url: base).master)
    }

    /// Apple's example: every rendition read with its group, language, default flag and resolved
    /// URI; closed captions have none (they are in the video); each variant's group answers with
    /// its own audio, AAC's stereo for an AAC variant.
    @Test func applesAdvancedExampleGivesEachVariantItsGroupsAudio() throws {
        let playlist = try master(RealPlaylists.appleBipbopAdvancedFMP4)
        #expect(playlist.variants.count == 24)
        #expect(playlist.renditions.count == 5)
        let audio = playlist.renditions.filter { $0.kind == .audio }
        #expect(audio.map(\.groupID) == ["aud1", "aud2", "aud3"])
        #expect(audio.map(\.channels) == [2, 6, 6])
        #expect(audio.allSatisfy { $0.language == "en" && $0.isDefault && $0.autoselect && $0.name == "English" })
        #expect(audio.map { $0.url?.absoluteString } == ["https://devstreaming.test/bipbop/a1/prog_index.m3u8",
                                                         "https://devstreaming.test/bipbop/a2/prog_index.m3u8",
                                                         "https://devstreaming.test/bipbop/a3/prog_index.m3u8"])
        #expect(playlist.renditions.first { $0.kind == .closedCaptions }?.url == nil)
        #expect(playlist.renditions.first { $0.kind == .subtitles }?.url?.absoluteString == "https://devstreaming.test/bipbop/s1/en/prog_index.m3u8")

        for variant in playlist.variants {
            let chosen = HLSAudioChoice.choose(for: variant, among: playlist.renditions)
            #expect(chosen?.groupID == variant.audioGroup, "\(variant.url)")
        }
    }

    /// Within a group: the first preferred language there is, else DEFAULT=YES, else the system's
    /// language, else the first; a rendition in the variant's own segments (no URI) fetches nothing.
    @Test func withinTheGroupPreferenceThenDefaultThenSystemLanguage() throws {
        let playlist = try master("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Français",LANGUAGE="fr",URI="fr.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Deutsch",LANGUAGE="de-DE",DEFAULT=YES,AUTOSELECT=YES,URI="de.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",URI="en.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="b",NAME="Italiano",LANGUAGE="it",URI="it.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="c",NAME="Main",LANGUAGE="en",DEFAULT=YES
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="d",NAME="First",URI="first.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="d",NAME="Second",LANGUAGE="es",URI="second.m3u8"
            #EXT-X-MEDIA:TYPE=TEXT-TO-SPEECH,GROUP-ID="a",NAME="Unknown kind",URI="x.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AUDIO="a"
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AUDIO="c"
            c.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AUDIO="d"
            d.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,AUDIO="none"
            none.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000
            own.m3u8
            """)
        #expect(playlist.renditions.count == 7, "the unknown TYPE is skipped")
        let (a, c, d, missing, own) = (playlist.variants[0], playlist.variants[1], playlist.variants[2], playlist.variants[3], playlist.variants[4])
        func name(_ variant: HLSVariant, _ preferred: [String] = [], system: String? = nil) -> String? {
            HLSAudioChoice.choose(for: variant, among: playlist.renditions, preferred: preferred, systemLanguage: system)?.name
        }
        #expect(name(a) == "Deutsch")
        #expect(name(a, ["en"]) == "English")
        #expect(name(a, ["ja", "FR"]) == "Français", "the first preferred language present, whatever its case")
        #expect(name(a, ["de"]) == "Deutsch", "de answers de-DE")
        #expect(name(a, ["it"]) == "Deutsch", "another group's language is not a candidate")
        #expect(name(a, system: "en_US.UTF-8") == "Deutsch", "DEFAULT=YES before the system's language")
        #expect(name(d, system: "es_ES.UTF-8") == "Second")
        #expect(name(d) == "First")
        #expect(name(c) == nil, "in the variant's own segments: nothing more to fetch")
        #expect(name(missing) == nil)
        #expect(name(own) == nil)
    }
}
