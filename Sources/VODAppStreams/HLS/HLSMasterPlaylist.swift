import VODAppTransfer

/// A master (multivariant) playlist: the same presentation at several bit rates.
///
/// Only `#EXT-X-STREAM-INF` is read. `#EXT-X-MEDIA` renditions (alternative audio, subtitles)
/// and `#EXT-X-I-FRAME-STREAM-INF` (trick-play streams, not something to watch) are ignored:
/// vodapp downloads one variant as one file.
public struct HLSMasterPlaylist: Sendable, Equatable {
    /// Where the playlist was fetched from; its URIs were resolved against it.
    public let url: MediaURL
    /// In the playlist's order; never empty.
    public let variants: [HLSVariant]

    public init(url: MediaURL, variants: [HLSVariant]) {
        self.url = url
        self.variants = variants
    }
}
