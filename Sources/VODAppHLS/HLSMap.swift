import VODAppModel

/// An `#EXT-X-MAP`: the Media Initialization Section (an fMP4 `ftyp`+`moov`) that the segments
/// after it need in front of them.
public struct HLSMap: Sendable, Equatable {
    public let url: MediaURL
    /// BYTERANGE, when the section is part of a larger resource. RFC 8216 requires its offset;
    /// a missing one is read as 0.
    public let byteRange: HLSByteRange?
    /// The key in effect where the MAP tag stands (RFC 8216 §4.3.2.4: a KEY applies to the MAP
    /// tags after it too), which need not be the key of the segments that use the section.
    public let key: HLSKey?

    public init(url: MediaURL, byteRange: HLSByteRange? = nil, key: HLSKey? = nil) {
        self.url = url
        self.byteRange = byteRange
        self.key = key
    }
}
