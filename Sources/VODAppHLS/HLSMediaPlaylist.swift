import VODAppModel

/// A media playlist: the segments of one variant, in order.
public struct HLSMediaPlaylist: Sendable, Equatable {
    /// `#EXT-X-PLAYLIST-TYPE`.
    public enum PlaylistType: String, Sendable, Equatable {
        /// The playlist never changes.
        case vod = "VOD"
        /// Segments may be appended, never removed.
        case event = "EVENT"
    }

    /// How the segments are packaged, which the muxer reads either way.
    public enum SegmentFormat: Sendable, Equatable {
        /// MPEG-TS packets: the segments concatenate as they are.
        case mpegTS
        /// Fragmented MP4: each run of segments goes after its `HLSMap` init section.
        case fragmentedMP4
        /// Some segments have an init section and some do not.
        case mixed
    }

    /// Where the playlist was fetched from; its URIs were resolved against it.
    public let url: MediaURL
    /// `#EXT-X-TARGETDURATION`, seconds, when present (RFC 8216 requires it; vodapp does not
    /// need it, so its absence is not an error).
    public let targetDuration: Int?
    /// `#EXT-X-MEDIA-SEQUENCE`, 0 when absent: the first segment's sequence number.
    public let mediaSequence: UInt64
    public let playlistType: PlaylistType?
    /// Whether `#EXT-X-ENDLIST` is present: no segment will be added.
    public let hasEndList: Bool
    /// `#EXT-X-I-FRAMES-ONLY`: each segment is one key frame, a trick-play stream.
    public let isIFramesOnly: Bool
    /// Never empty.
    public let segments: [HLSSegment]

    public init(url: MediaURL, targetDuration: Int?, mediaSequence: UInt64, playlistType: PlaylistType?,
                hasEndList: Bool, isIFramesOnly: Bool, segments: [HLSSegment]) {
        self.url = url
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.playlistType = playlistType
        self.hasEndList = hasEndList
        self.isIFramesOnly = isIFramesOnly
        self.segments = segments
    }

    /// The sum of the segments' `#EXTINF` durations, seconds.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// Whether the server may still add segments, so that what is listed now is not the whole
    /// item: true when there is no `#EXT-X-ENDLIST` and the type is not VOD. An EVENT playlist
    /// without ENDLIST is live (it grows); with ENDLIST it is complete. A VOD playlist without
    /// ENDLIST breaks RFC 8216 §4.3.3.5, but VOD already promises it will not change, so it is
    /// taken at its word.
    public var isLive: Bool { !hasEndList && playlistType != .vod }

    /// Whether any segment, or any init section, is encrypted with SAMPLE-AES or
    /// SAMPLE-AES-CTR, which vodapp cannot decrypt.
    public var usesSampleAES: Bool {
        segments.contains { segment in
            [segment.key?.method, segment.map?.key?.method].contains { $0 == .sampleAES || $0 == .sampleAESCTR }
        }
    }

    /// Whether any segment or init section has a key vodapp cannot use (`HLSKey.isSupported`):
    /// SAMPLE-AES, or AES-128 whose KEYFORMAT is not `identity`. Covers `usesSampleAES`.
    public var usesUnsupportedEncryption: Bool {
        segments.contains { segment in
            [segment.key, segment.map?.key].contains { key in key.map { !$0.isSupported } ?? false }
        }
    }

    /// fMP4 when every segment has an `#EXT-X-MAP`, MPEG-TS when none has: in practice a MAP
    /// means fMP4 (RFC 8216 also allows one for MPEG-TS, naming a PAT/PMT section, which is rare;
    /// packed audio, `.aac` segments, is reported as MPEG-TS as well).
    public var segmentFormat: SegmentFormat {
        let mapped = segments.filter { $0.map != nil }.count
        return mapped == 0 ? .mpegTS : mapped == segments.count ? .fragmentedMP4 : .mixed
    }
}
