import VODAppModel
import Foundation

/// The text of an HLS playlist (RFC 8216) fetched from a URL, parsed: either the master playlist
/// that lists variants, or the media playlist of one variant. Pure: no I/O.
public enum HLSPlaylist: Sendable, Equatable {
    case master(HLSMasterPlaylist)
    case media(HLSMediaPlaylist)

    /// Larger playlists are refused before they are decoded: a 1 MiB media playlist already
    /// lists tens of thousands of segments.
    public static let maximumBytes = 1 << 20
    /// The most segments of a media playlist accepted: one HLS item fetches at most this many
    /// (`HLSSegmentLimits`).
    public static let maximumSegments = 20_000
    /// The most variants of a master playlist accepted. Real ones list tens; the list is held
    /// until a variant is chosen, so its size is the item's memory.
    public static let maximumVariants = 1_000

    /// Parses the bytes of a playlist fetched from `url`; relative URIs resolve against `url`.
    /// - Parameter maximumSegments: a media playlist listing more fails with `tooManySegments`,
    ///   as soon as the parser meets one more: the rest is not read.
    /// - Parameter deadline: reading stops with `outOfTime` once it has passed.
    public static func parse(_ bytes: [UInt8], url: MediaURL, maximumSegments: Int = maximumSegments,
                             deadline: ContinuousClock.Instant? = nil) throws(HLSPlaylistError) -> HLSPlaylist {
        guard bytes.count <= maximumBytes else { throw .tooLarge(bytes: bytes.count, limit: maximumBytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return try parse(text: text, url: url, maximumSegments: maximumSegments, deadline: deadline)
    }

    /// Parses the text of a playlist fetched from `url`; relative URIs resolve against `url`.
    public static func parse(text: String, url: MediaURL, maximumSegments: Int = maximumSegments,
                             deadline: ContinuousClock.Instant? = nil) throws(HLSPlaylistError) -> HLSPlaylist {
        guard text.utf8.count <= maximumBytes else { throw .tooLarge(bytes: text.utf8.count, limit: maximumBytes) }
        var parser = HLSPlaylistParser(url: url, maximumSegments: min(maximumSegments, Self.maximumSegments), deadline: deadline)
        return try parser.parse(text)
    }

    /// The master playlist, or nil for a media playlist.
    public var master: HLSMasterPlaylist? {
        if case .master(let master) = self { master } else { nil }
    }

    /// The media playlist, or nil for a master playlist.
    public var media: HLSMediaPlaylist? {
        if case .media(let media) = self { media } else { nil }
    }
}
