import VODAppModel

/// A master (multivariant) playlist: the same presentation at several bit rates.
///
/// `#EXT-X-STREAM-INF` variants and the `#EXT-X-MEDIA` renditions they name are read;
/// `#EXT-X-I-FRAME-STREAM-INF` (trick-play streams, not something to watch) is ignored.
public struct HLSMasterPlaylist: Sendable, Equatable {
    /// Where the playlist was fetched from; its URIs were resolved against it.
    public let url: MediaURL
    /// In the playlist's order; never empty.
    public let variants: [HLSVariant]
    /// The `#EXT-X-MEDIA` renditions, in the playlist's order.
    public let renditions: [HLSRendition]

    public init(url: MediaURL, variants: [HLSVariant], renditions: [HLSRendition] = []) {
        self.url = url
        self.variants = variants
        self.renditions = renditions
    }
}
