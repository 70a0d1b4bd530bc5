/// Which subtitles a stream item is fetched with (`--subtitles LANGS|all|none`).
public enum SubtitleSelection: Sendable, Equatable {
    /// None: the default, as a file alone is what was asked for.
    case none
    /// One rendition of every language the chosen variant offers.
    case all
    /// The renditions of these languages, in this order, those offered.
    case languages([String])
}
