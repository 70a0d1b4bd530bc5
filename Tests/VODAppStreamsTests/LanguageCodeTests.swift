import Foundation
import Testing
@testable import VODAppStreams

/// A rendition's LANGUAGE as the ISO 639-2 code an MP4 track carries, through Debian's table.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: LanguageCode.tablePath), "needs Debian's iso-codes"))
struct LanguageCodeTests {
    @Test(arguments: [("en", "eng"), ("de", "deu"), ("de-CH", "deu"), ("FR", "fra"), ("pt-BR", "por"), ("zh-Hans", "zho"),
                      ("yue", "yue"), ("deu", "deu"), ("ger", "ger")])
    func codesBecomeThreeLetters(_ tag: String, _ code: String) {
        #expect(LanguageCode.iso639_2(tag) == code)
    }

    @Test(arguments: ["", "und", "zz", "german", "e", "1en", "ççç"])
    func anythingElseIsNone(_ tag: String) {
        #expect(LanguageCode.iso639_2(tag) == nil)
    }
}
