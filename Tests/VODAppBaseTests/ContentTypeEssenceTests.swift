import Foundation
import Testing
import VODAppBase

/// A Content-Type's essence, as the file's name, the sniffer and the vague-type check read it.
@Suite struct ContentTypeEssenceTests {
    @Test(arguments: [
        (nil, ""), ("", ""), ("  ", ""), (";", ""), (";video/mp4", ""),
        ("video/mp4", "video/mp4"), ("Video/MP4", "video/mp4"), (" \tVIDEO/mp4 \t; codecs=\"avc1\"", "video/mp4"),
        ("text/plain;charset=UTF-8", "text/plain"), ("application/vnd.apple.mpegURL", "application/vnd.apple.mpegurl"),
        // Only ASCII letters are lowered and only spaces and tabs trimmed: these match no type.
        ("v\u{130}deo/mp4", "v\u{130}deo/mp4"), ("\u{A0}video/mp4", "\u{A0}video/mp4"), ("video/mp4\r\n", "video/mp4\r\n"),
    ] as [(String?, String)])
    func theTypeAndSubtypeLowercasedWithoutParameters(_ contentType: String?, _ essence: String) {
        #expect(ContentTypeEssence.of(contentType) == essence)
    }

    /// For every value of ASCII that does not start with `;`, what Foundation's trimming and
    /// lowercasing of the first `;`-separated part gave.
    @Test func itIsWhatFoundationGaveForASCIIValues() {
        let alphabet = Array(" \t;=/+-.\"abcXYZ019mp4")
        for _ in 0..<20_000 {
            let value = String((0..<Int.random(in: 0...12)).map { _ in alphabet.randomElement()! })
            guard !value.hasPrefix(";") else { continue }
            let foundation = value.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            #expect(ContentTypeEssence.of(value) == foundation, "\(value.debugDescription)")
        }
    }
}
