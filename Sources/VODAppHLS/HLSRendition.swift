import VODAppModel

/// One `#EXT-X-MEDIA` of a master playlist: an alternative rendition a variant names by group
/// (RFC 8216 §4.3.4.1), such as the audio of a variant whose own playlist has only video.
public struct HLSRendition: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case audio = "AUDIO"
        case video = "VIDEO"
        case subtitles = "SUBTITLES"
        case closedCaptions = "CLOSED-CAPTIONS"
    }

    public let kind: Kind
    /// GROUP-ID: the name variants use for it (`AUDIO="aac"`).
    public let groupID: String
    /// NAME: for a person ("English", "Deutsch (Audiodeskription)").
    public let name: String
    /// LANGUAGE: an RFC 5646 tag (`en`, `de-DE`), when given.
    public let language: String?
    /// DEFAULT=YES: what a player plays when the viewer chose nothing.
    public let isDefault: Bool
    /// AUTOSELECT=YES: a player may choose it by the viewer's language.
    public let autoselect: Bool
    /// Its media playlist; nil when the rendition is in the variant's own segments.
    public let url: MediaURL?
    /// CHANNELS' first field, the number of audio channels, when given.
    public let channels: Int?
    /// FORCED=YES: subtitles of the foreign-language parts only, not the whole dialogue.
    public let isForced: Bool

    public init(kind: Kind, groupID: String, name: String, language: String? = nil, isDefault: Bool = false,
                autoselect: Bool = false, url: MediaURL? = nil, channels: Int? = nil, isForced: Bool = false) {
        self.kind = kind
        self.groupID = groupID
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.url = url
        self.channels = channels
        self.isForced = isForced
    }
}
