/// One subtitle rendition of a stream item as it ended: the WebVTT file to place beside the
/// item's, or why there is none. A subtitle that could not be made never fails its item: the
/// video is what was asked for first.
public struct SubtitleTrack: Sendable, Equatable {
    /// The language as it goes into the file's name (`SubtitleChoice.fileTag`).
    public let language: String
    /// The rendition's NAME, for a person.
    public let name: String
    /// The joined WebVTT file; nil when it could not be made.
    public let text: [UInt8]?
    /// Why it could not be made.
    public let error: String?

    public init(language: String, name: String, text: [UInt8]? = nil, error: String? = nil) {
        self.language = language
        self.name = name
        self.text = text
        self.error = error
    }
}
