import VODAppModel

/// One `#EXT-X-STREAM-INF` of a master playlist and the media playlist URL on the line after it.
public struct HLSVariant: Sendable, Equatable {
    /// The variant's media playlist, resolved against the master's URL.
    public let url: MediaURL
    /// BANDWIDTH: the peak bit rate, bits per second (required by RFC 8216).
    public let bandwidth: Int
    /// AVERAGE-BANDWIDTH: the average bit rate, bits per second, when the server says.
    public let averageBandwidth: Int?
    public let resolution: HLSResolution?
    /// CODECS split at its commas: `["avc1.64001f", "mp4a.40.2"]`; empty when absent.
    public let codecs: [String]
    /// AUDIO: the group of `#EXT-X-MEDIA` renditions the audio comes from (`HLSAudioChoice`).
    public let audioGroup: String?
    /// SUBTITLES: the group of `#EXT-X-MEDIA` WebVTT renditions played with it (`SubtitleChoice`).
    public let subtitleGroup: String?

    public init(url: MediaURL, bandwidth: Int, averageBandwidth: Int? = nil, resolution: HLSResolution? = nil,
                codecs: [String] = [], audioGroup: String? = nil, subtitleGroup: String? = nil) {
        self.url = url
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.resolution = resolution
        self.codecs = codecs
        self.audioGroup = audioGroup
        self.subtitleGroup = subtitleGroup
    }

    /// The rate a download of the whole variant is expected to average: AVERAGE-BANDWIDTH when
    /// given, else the peak BANDWIDTH (an over-estimate, so on the safe side of a size limit).
    public var expectedBitsPerSecond: Int { averageBandwidth ?? bandwidth }
}
