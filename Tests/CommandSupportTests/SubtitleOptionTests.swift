import Testing
import CommandSupport
import VODAppStreams

/// `--subtitles`: all, none, or languages as `--audio-lang` takes them.
@Suite struct SubtitleOptionTests {
    @Test func allNoneAndLanguages() throws {
        #expect(try SubtitleOption.parse("all") == .all)
        #expect(try SubtitleOption.parse("ALL") == .all)
        #expect(try SubtitleOption.parse("none") == SubtitleSelection.none)
        #expect(try SubtitleOption.parse("fr,en-GB") == .languages(["fr", "en-GB"]))
    }

    /// A name, an empty entry, or `all` among languages is a mistake, said as one.
    @Test(arguments: ["french", "", "en,", "all,en", "none,fr", "*"])
    func anythingElseIsRefused(_ text: String) {
        #expect(throws: (any Error).self) { try SubtitleOption.parse(text) }
    }
}
