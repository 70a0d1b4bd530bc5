import Foundation
import Testing
@testable import VODAppModel

/// A rendition's LANGUAGE as the ISO 639-2 code an MP4 track carries, through Debian's table.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: LanguageCode.tablePath), "needs Debian's iso-codes"))
struct LanguageCodeTests {
    @Test(arguments: [("en", "eng"), ("de", "deu"), ("de-CH", "deu"), ("FR", "fra"), ("pt-BR", "por"), ("zh-Hans", "zho"),
                      ("yue", "yue"), ("deu", "deu"), ("ger", "deu"), ("fre", "fra")])
    func codesBecomeThreeLetters(_ tag: String, _ code: String) {
        #expect(LanguageCode.iso639_2(tag) == code)
    }

    @Test(arguments: ["", "und", "zz", "german", "e", "1en", "ççç"])
    func anythingElseIsNone(_ tag: String) {
        #expect(LanguageCode.iso639_2(tag) == nil)
    }

    /// The two-letter code a subtitle's file name carries: mpv 0.35 (Debian 12's) loads
    /// `NAME.de.vtt` with a video, not `NAME.de-DE.vtt` (new-user trial).
    @Test(arguments: [("de", "de"), ("de-DE", "de"), ("deu", "de"), ("ger", "de"), ("FRA", "fr"), ("pt_BR", "pt"), ("eng", "en")])
    func codesBecomeTwoLettersWhereTheyHaveThem(_ tag: String, _ code: String) {
        #expect(LanguageCode.iso639_1(tag) == code)
    }

    @Test(arguments: ["yue", "zz", "und", "", "german", "../de"])
    func languagesWithoutATwoLetterCodeHaveNone(_ tag: String) {
        #expect(LanguageCode.iso639_1(tag) == nil)
    }
}
