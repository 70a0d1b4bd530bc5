/// A Content-Type's essence (RFC 9110 8.3.1): the type and subtype, lowercased, without the
/// parameters after `;` or the spaces and tabs around them. `Video/MP4; codecs="avc1"` is
/// `video/mp4`; none is "".
///
/// Read for every response, to name a file, sniff a body and judge a vague type. Foundation's
/// trimming and Unicode lowercasing cost about 13 µs a call there; the types vodapp compares
/// with are ASCII, so ASCII letters are lowered and every other byte kept: a type with others
/// matches none of them, as before.
package enum ContentTypeEssence {
    package static func of(_ contentType: String?) -> String {
        guard let contentType else { return "" }
        let type = Substring(contentType.utf8.prefix { $0 != UInt8(ascii: ";") }).withoutOptionalWhitespace
        return String(decoding: type.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
