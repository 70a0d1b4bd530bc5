import VODAppModel

/// One media segment of a media playlist: what to fetch, and what to do with it.
public struct HLSSegment: Sendable, Equatable {
    /// The segment's URI resolved against the playlist's URL.
    public let url: MediaURL
    /// `#EXTINF`'s duration, seconds.
    public let duration: Double
    /// `#EXTINF`'s title, as written (untrusted text), or nil when empty.
    public let title: String?
    /// `#EXT-X-MEDIA-SEQUENCE` plus the segment's index.
    public let sequenceNumber: UInt64
    /// The sub-range of `url` that holds the segment, when `#EXT-X-BYTERANGE` says so.
    public let byteRange: HLSByteRange?
    /// The key it is encrypted with, nil when in clear.
    public let key: HLSKey?
    /// The init section that must precede it (fMP4), nil for MPEG-TS.
    public let map: HLSMap?
    /// Whether an `#EXT-X-DISCONTINUITY` comes before it: encoding parameters or timestamps may
    /// change here.
    public let followsDiscontinuity: Bool

    public init(url: MediaURL, duration: Double, title: String? = nil, sequenceNumber: UInt64, byteRange: HLSByteRange? = nil,
                key: HLSKey? = nil, map: HLSMap? = nil, followsDiscontinuity: Bool = false) {
        self.url = url
        self.duration = duration
        self.title = title
        self.sequenceNumber = sequenceNumber
        self.byteRange = byteRange
        self.key = key
        self.map = map
        self.followsDiscontinuity = followsDiscontinuity
    }
}
