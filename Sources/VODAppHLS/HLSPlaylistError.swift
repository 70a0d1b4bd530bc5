import VODAppModel
import VODAppBase

/// Why a fetched text is not an HLS playlist vodapp can use. Each case renders as one line; line
/// numbers count from 1 and quoted text from the playlist is already sanitized and shortened.
public enum HLSPlaylistError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLarge(bytes: Int, limit: Int)
    case notUTF8
    /// The run's deadline came while the playlist was being read: a long playlist must not hold
    /// the transfer thread past the budget.
    case outOfTime
    /// The first line is not `#EXTM3U`: an error page, a DASH manifest, a video.
    case notAPlaylist(firstLine: String)
    case tooManySegments(limit: Int)
    case tooManyVariants(limit: Int)
    /// A media playlist with no segment at all.
    case noSegments
    /// `#EXT-X-STREAM-INF` (master) and segment tags (media) in the same playlist.
    case mixedPlaylist(line: Int)
    /// An attribute list that does not follow RFC 8216 §4.2.
    case badAttributeList(tag: String, line: Int, detail: String)
    case missingAttribute(tag: String, name: String, line: Int)
    case badValue(tag: String, line: Int, detail: String)
    /// A URI that is not an http or https URL once resolved against the playlist's URL.
    case unresolvableURI(uri: String, line: Int, reason: String)
    /// An `#EXTINF` or `#EXT-X-STREAM-INF` whose URI line does not come before the next such tag
    /// (a last `#EXTINF` with nothing after it is ignored).
    case missingURI(tag: String, line: Int)
    /// `#EXT-X-BYTERANGE` without an offset, and no earlier range of the same URI to follow.
    case byteRangeWithoutStart(line: Int)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            "HLS playlist is \(bytes) bytes, more than the \(ByteSize.format(Int64(limit))) vodapp reads"
        case .outOfTime:
            "the budget ran out while the HLS playlist was read"
        case .notUTF8:
            "HLS playlist is not UTF-8 text"
        case .notAPlaylist(let firstLine):
            "not an HLS playlist: the first line is \"\(firstLine)\", not #EXTM3U"
        case .tooManySegments(let limit):
            "HLS playlist lists more than \(limit) segments"
        case .tooManyVariants(let limit):
            "HLS playlist lists more than \(limit) variants"
        case .noSegments:
            "HLS media playlist lists no segments"
        case .mixedPlaylist(let line):
            "HLS playlist line \(line): master (#EXT-X-STREAM-INF) and media (#EXTINF) tags in one playlist"
        case .badAttributeList(let tag, let line, let detail):
            "HLS playlist line \(line): #\(tag) has a malformed attribute list (\(detail))"
        case .missingAttribute(let tag, let name, let line):
            "HLS playlist line \(line): #\(tag) has no \(name) attribute"
        case .badValue(let tag, let line, let detail):
            "HLS playlist line \(line): #\(tag) \(detail)"
        case .unresolvableURI(let uri, let line, let reason):
            "HLS playlist line \(line): URI \"\(uri)\" does not resolve to a fetchable URL (\(reason))"
        case .missingURI(let tag, let line):
            "HLS playlist line \(line): #\(tag) is not followed by a URI line"
        case .byteRangeWithoutStart(let line):
            "HLS playlist line \(line): #EXT-X-BYTERANGE has no offset and no earlier range of the same URI to follow"
        }
    }

    /// Playlist text as it appears in an error: one line, at most 80 characters.
    static func excerpt(_ text: some StringProtocol) -> String {
        UntrustedText.sanitized(String(text), limit: 80, replacingControlsWith: "?")
    }
}
