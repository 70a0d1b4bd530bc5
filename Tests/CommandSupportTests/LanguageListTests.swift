import Testing
import CommandSupport

/// `--audio-lang`'s list: language codes as BCP 47 or `$LANG` spells them, in order.
@Suite struct LanguageListTests {
    @Test(arguments: ["en", "de-CH", "yue-Hant", "pt-BR,en", "de_DE", "de_DE.UTF-8", "sr_RS@latin", "fr,en-GB,de", "EN"])
    func codesAsBCP47OrLANGSpellsThemAreTaken(_ text: String) throws {
        #expect(try LanguageList.parse(text).tags == text.split(separator: ",").map(String.init))
    }

    /// A language's name matched no rendition, and the default one came without a word (the
    /// new-user trial's `german`); empty entries and stray characters are mistakes too.
    @Test(arguments: ["german", "english,de", "", "en,", ",en", "e", "de DE", "de/DE", "1en", "de-", "en-GB-"])
    func anythingElseIsRefused(_ text: String) {
        #expect(throws: (any Error).self) { try LanguageList.parse(text) }
    }
}
