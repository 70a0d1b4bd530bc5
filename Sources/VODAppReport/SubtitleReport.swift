import VODAppStore

/// A subtitle of a stream item, as the report shows it: the file placed beside the item's, or
/// why there is none.
public struct SubtitleReport: Sendable, Equatable, Encodable {
    /// The language, as in the file's name.
    public let language: String
    /// The rendition's name, for a person.
    public let name: String
    /// The file, when placed (or found there already).
    public let path: String?
    public let bytes: Int64?
    /// Why there is no file.
    public let error: String?
    /// What the file was as vodapp placed it, for the store (not in the report).
    package var placed: PlacedSubtitle?

    private enum CodingKeys: String, CodingKey {
        case language, name, path, bytes, error
    }

    public static func == (lhs: SubtitleReport, rhs: SubtitleReport) -> Bool {
        lhs.language == rhs.language && lhs.name == rhs.name && lhs.path == rhs.path && lhs.bytes == rhs.bytes && lhs.error == rhs.error
    }

    public init(language: String, name: String, path: String? = nil, bytes: Int64? = nil, error: String? = nil,
                placed: PlacedSubtitle? = nil) {
        self.language = language
        self.name = name
        self.path = path
        self.bytes = bytes
        self.error = error
        self.placed = placed
    }
}
