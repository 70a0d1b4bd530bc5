import Foundation
import VODAppBase

/// Decides, from a response's Content-Type and its first bytes, whether its body is media, an
/// HLS playlist or a DASH manifest to follow, or evidently something else: a page a person was
/// meant to read.
///
/// What counts as media is decided by exclusion, because no list of containers is complete: a
/// body is media unless its Content-Type names a page, a document or a manifest (`text/*`,
/// HTML, JSON, XML, JavaScript; not `text/plain`, see `describe`), or its first bytes are
/// text: at most one in a hundred of them a control character other than tab, CR, LF and form
/// feed, and UTF-8 or mostly ASCII (Latin-1 and other 8-bit charsets), or UTF-16 (with a
/// byte-order mark, or ASCII with every other byte zero); or they start, after whitespace alone, like markup, JSON, a
/// script or a desktop entry, whatever follows. Every audio and video container starts with many
/// binary bytes within its first 512: box sizes (MP4, MOV, 3GP), EBML (Matroska, WebM), sync
/// bytes and PIDs (MPEG-TS, MPEG-PS), `RIFF` sizes (AVI, WAV), `OggS\0`, `fLaC\0`, `FLV\1`,
/// `ID3` tag headers. So `video/*`, `audio/*`, `application/octet-stream`, a missing Content-Type and a wrong one (`image/jpeg` for an MP4)
/// are all judged by their bytes, and a login page served as `application/octet-stream` is still
/// caught. What a hostile server slips past this is still never named as a page or a script:
/// `MediaFileName.fileExtension` gives a file only a media extension, or none.
public enum MediaSniffer {
    public enum Verdict: Sendable, Equatable {
        case media
        case hlsPlaylist
        /// A DASH manifest (MPD): by its type, `application/dash+xml`, or an `<MPD` element in
        /// an XML document's first bytes.
        case dashManifest
        /// Not media, with the reason a person reads in the report.
        case notMedia(String)
        /// More bytes are needed to tell.
        case undecided
    }

    /// Bytes of the body looked at before deciding.
    public static let headLength = 512
    /// Bytes of an XML body looked at for a DASH manifest's root element.
    static let xmlHeadLength = 8192

    static let hlsTypes: Set<String> = ["application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl",
                                        "audio/x-mpegurl", "application/mpegurl", "video/mpegurl"]

    /// - Parameters:
    ///   - contentType: the response's Content-Type, parameters included, if it had one.
    ///   - head: the first bytes of the body, up to `headLength`.
    ///   - complete: whether the body ended within `head`.
    /// - Parameter ciphertext: the body is encrypted as a whole (an AES-128 HLS segment), so no
    ///   container's signature can show in it.
    public static func verdict(contentType: String?, head: [UInt8], complete: Bool, ciphertext: Bool = false) -> Verdict {
        let type = ContentTypeEssence.of(contentType)
        if head.isEmpty && complete { return .notMedia("the server sent an empty body") }
        if hlsTypes.contains(type) { return .hlsPlaylist }
        if type == "application/dash+xml" { return .dashManifest }
        // A generic text type may be a server's guess from a file's extension, on bytes a
        // container's signature marks as media: servers that map extensions through
        // /etc/mime.types (Apache on Debian, Python's http.server) label `.ts`, MPEG-TS, as Qt's
        // translation files, `text/vnd.trolltech.linguist`. Pages, documents and scripts are
        // refused from their type alone.
        let typeReason = reason(forType: type)
        if let typeReason, !Self.isGenericText(type) { return .notMedia(typeReason) }
        guard head.count >= headLength || complete else { return .undecided }
        // Ciphertext shows no signature: the text checks below still tell a page or a document.
        if let typeReason, !ciphertext, containerType(head) == nil { return .notMedia(typeReason) }
        let utf16 = utf16Text(head)
        // Only text's own whitespace and a byte-order mark come before the first sign: a body
        // whose first bytes do not decode as text (control bytes, bytes that are not UTF-8) is
        // not a document, whatever follows them: skipping such bytes took one random binary
        // body in a thousand, whose skipped bytes ran up to `{"`, for JSON. A page behind junk
        // bytes is still caught below, as text or as markup.
        // Every sign below begins with one of `#<[{`: a body whose first byte past whitespace is
        // none of them (every container's) matches none, and is not decoded into characters at
        // all.
        let start = utf16 != nil || mayBeginWithSign(head) ? String((utf16 ?? String(decoding: head.prefix(256), as: UTF8.self)).drop { character in
            character.unicodeScalars.allSatisfy { Self.leadingWhitespace.contains($0) }
        }.prefix(64)).lowercased() : ""
        if start.hasPrefix("#extm3u") { return .hlsPlaylist }
        if let other = notMediaSignature(head) { return .notMedia("the server answered with \(other), not a video") }
        // What no container starts with: markup, JSON, a script's #!, a desktop entry.
        let signs = ["<!doctype", "<html", "<head", "<body", "<script", "<?xml", "<!--", "<svg", "#!", "[desktop entry]"]
        let afterBracket = start.dropFirst().first { !$0.isWhitespace }
        let looksLikeJSON = (start.first == "{" || start.first == "[") && afterBracket.map { "\"{[}]".contains($0) } == true
        guard signs.contains(where: { start.hasPrefix($0) }) || looksLikeJSON || utf16 != nil || isText(head, complete: complete) else {
            // A page behind a few junk bytes is still a page to the desktop, whose type detection
            // (shared-mime-info) looks for markup anywhere in the first 256 bytes.
            if let markup = markupNearTheStart(head) { return .notMedia("the server answered with \(markup) behind a few bytes, not media") }
            return .media
        }
        if start.hasPrefix("<!doctype html") || start.hasPrefix("<html") || start.hasPrefix("<head") || start.hasPrefix("<body")
            || start.hasPrefix("<!--") || start.hasPrefix("<script") {
            return .notMedia(htmlPage)
        }
        if start.hasPrefix("<") {
            let text = String(decoding: head, as: UTF8.self)
            if text.contains("<MPD") || text.range(of: #"<[A-Za-z0-9_.-]+:MPD[\s>]"#, options: .regularExpression) != nil {
                return .dashManifest
            }
            // A manifest's root may come after a long comment or declaration, served by a web
            // server that does not know `.mpd` (Debian's nginx: application/octet-stream).
            if !complete, head.count < xmlHeadLength { return .undecided }
            return .notMedia("the server answered with an XML document, not media")
        }
        if start.hasPrefix("#!") { return .notMedia("the server answered with a script, not media") }
        if start.hasPrefix("[desktop entry]") { return .notMedia("the server answered with a desktop entry (a launcher), not media") }
        if start.hasPrefix("{") || start.hasPrefix("[") {
            return .notMedia(json)
        }
        return .notMedia("the server answered with text, not media")
    }

    /// Whether the first byte past leading whitespace and byte-order marks (`leadingWhitespace`,
    /// as bytes) is one a sign starts with.
    static func mayBeginWithSign(_ head: [UInt8]) -> Bool {
        var index = 0
        while index < min(head.count, 256) {
            switch head[index] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                index += 1
            case 0xEF where head.count >= index + 3 && head[index + 1] == 0xBB && head[index + 2] == 0xBF:
                index += 3
            case UInt8(ascii: "#"), UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "{"):
                return true
            default:
                return false
            }
        }
        return false
    }

    /// Space, tab, LF, CR, form feed and the byte-order mark.
    private static let leadingWhitespace: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r", "\u{0C}", "\u{FEFF}"]

    private static let htmlPage = "the server answered with an HTML page, not media: a login page or a captive portal?"
    private static let json = "the server answered with JSON, not media: an API's error?"

    /// Why a Content-Type is never media, in words. `text/plain` is not among them: it is the
    /// type servers give files they do not know (nginx's `default_type`, for `.m4s` and `.ts`
    /// segments among others), so such a body is judged by its bytes.
    private static func reason(forType type: String) -> String? {
        switch type {
        case "text/plain": nil
        case "text/html", "application/xhtml+xml": htmlPage
        case "application/json", "application/problem+json", "text/json": json
        case let other where other.hasPrefix("application/") && other.hasSuffix("+json"): json
        case "application/xml", "text/xml", "application/javascript", "text/javascript":
            "the server answered with a document (\(type)), not media"
        case let text where text.hasPrefix("text/"): "the server answered with a text page (\(type)), not media"
        default: nil
        }
    }

    /// A `text/*` type that names no page, document or script (`text/vnd.trolltech.linguist`,
    /// `text/x-foo`): what a server says of an extension it maps to something else.
    private static func isGenericText(_ type: String) -> Bool {
        type.hasPrefix("text/") && !["text/html", "text/xml", "text/javascript", "text/json", "text/css", "text/csv"].contains(type)
    }

    /// The media type a container's first bytes show, for a file the server labelled vaguely
    /// (`application/octet-stream`, `text/plain`, nothing): its name then gets the right extension.
    public static func containerType(_ head: [UInt8]) -> String? {
        func at(_ offset: Int, _ text: String) -> Bool {
            head.count >= offset + text.utf8.count && head[offset..<offset + text.utf8.count].elementsEqual(text.utf8)
        }
        if at(4, "ftyp") { return at(8, "qt  ") ? "video/quicktime" : at(8, "M4A ") ? "audio/mp4" : "video/mp4" }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            return head.prefix(64).starts(with: [0x1A, 0x45, 0xDF, 0xA3]) && String(decoding: head.prefix(64), as: UTF8.self).contains("webm")
                ? "video/webm" : "video/x-matroska"
        }
        if head.count >= 189, head[0] == 0x47, head[188] == 0x47 { return "video/mp2t" }
        if at(0, "RIFF"), at(8, "AVI ") { return "video/x-msvideo" }
        if at(0, "RIFF"), at(8, "WAVE") { return "audio/wav" }
        if at(0, "OggS") { return "audio/ogg" }
        if at(0, "fLaC") { return "audio/flac" }
        if at(0, "FLV") { return "video/x-flv" }
        if at(0, "ID3") { return "audio/mpeg" }
        return nil
    }

    /// HTML or SVG markup within the first 256 bytes, wherever it starts: what shared-mime-info
    /// (and so `xdg-open` and file managers) takes for a page. No container's first 256 bytes
    /// hold it.
    ///
    /// Searched as bytes, ASCII letters folded: the markup is ASCII, and every media body goes
    /// through this, where decoding its binary bytes to a String and searching that with
    /// Foundation was a tenth of a small file's cost.
    static func markupNearTheStart(_ head: [UInt8]) -> String? {
        let folded = head.prefix(256).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        func holds(_ markup: String) -> Bool {
            let pattern = Array(markup.utf8)
            guard folded.count >= pattern.count else { return false }
            return (0...folded.count - pattern.count).contains { start in
                folded[start] == pattern[0] && folded[start..<start + pattern.count].elementsEqual(pattern)
            }
        }
        if ["<!doctype html", "<html", "<head", "<title", "<script", "<body", "<iframe"].contains(where: holds) { return "an HTML page" }
        if holds("<svg") { return "an SVG image" }
        return nil
    }

    /// Binary files that are not audio or video, by their first bytes: what a CDN sends in place of
    /// an expired video (a placeholder image, a PDF notice), or what should never be fetched.
    static func notMediaSignature(_ head: [UInt8]) -> String? {
        let signatures: [(bytes: [UInt8], what: String)] = [
            ([0xFF, 0xD8, 0xFF], "a JPEG image"), ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"),
            (Array("GIF87a".utf8), "a GIF image"), (Array("GIF89a".utf8), "a GIF image"), (Array("%PDF-".utf8), "a PDF document"),
            ([0x1F, 0x8B], "a gzip archive"), ([0x50, 0x4B, 0x03, 0x04], "a zip archive"), ([0x7F, 0x45, 0x4C, 0x46], "a program (ELF)"),
        ]
        if let match = signatures.first(where: { head.starts(with: $0.bytes) }) { return match.what }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return "a WebP image" }
        return nil
    }

    /// Whether `bytes` read as text: at most one in a hundred is a control character other than
    /// tab, LF, CR and form feed, and they are UTF-8 (a character cut at the end of an incomplete
    /// head is allowed) or mostly ASCII, as a page in Latin-1 or another 8-bit charset is. A
    /// container's first bytes hold many more control bytes, and random ones half non-ASCII.
    package static func isText(_ bytes: [UInt8], complete: Bool = true) -> Bool {
        // One pass, ended by the control byte that decides: every media body goes through this.
        var binary = 0
        var ascii = 0
        for byte in bytes {
            if byte < 0x80 { ascii += 1 }
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C) || byte == 0x7F {
                binary += 1
                if binary * 100 > bytes.count { return false }
            }
        }
        if ascii * 4 >= bytes.count * 3 { return true }
        var checked = bytes[...]
        if !complete {
            // Up to 3 trailing bytes may be the start of a character the head cut in two.
            var trim = 0
            while trim < 3, let last = checked.last, last & 0xC0 == 0x80 || last >= 0xC0 {
                checked = checked.dropLast()
                trim += 1
                if last >= 0xC0 { break }
            }
        }
        return String(validating: checked, as: UTF8.self) != nil
    }

    /// The text of `bytes` if they are UTF-16: a byte-order mark, or ASCII text with every other
    /// byte zero (no container looks like that).
    static func utf16Text(_ bytes: [UInt8]) -> String? {
        let pairs = bytes.count / 2
        guard pairs >= 2 else { return nil }
        let bigEndian: Bool
        if bytes[0] == 0xFE && bytes[1] == 0xFF {
            bigEndian = true
        } else if bytes[0] == 0xFF && bytes[1] == 0xFE {
            bigEndian = false
        } else {
            var evenZero = 0
            var oddZero = 0
            for pair in 0..<pairs {
                if bytes[pair * 2] == 0 { evenZero += 1 }
                if bytes[pair * 2 + 1] == 0 { oddZero += 1 }
                // Zeros on both sides: not UTF-16 text, as every container's first bytes show.
                if evenZero > 0 && oddZero > 0 { return nil }
            }
            guard max(evenZero, oddZero) * 10 >= pairs * 9 else { return nil }
            bigEndian = evenZero > oddZero
        }
        let units = (0..<pairs).map { index in
            let high = UInt16(bytes[index * 2 + (bigEndian ? 0 : 1)]), low = UInt16(bytes[index * 2 + (bigEndian ? 1 : 0)])
            return high << 8 | low
        }
        let text = String(decoding: units, as: UTF16.self)
        return isText(Array(text.unicodeScalars.prefix(256).map { UInt8(truncatingIfNeeded: min($0.value, 0xFF)) })) ? text : nil
    }
}
