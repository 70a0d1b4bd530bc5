import Foundation

/// A subtitle file vodapp placed beside an item's file (`NAME.LANG.vtt`), as the store keeps it:
/// what retention needs to know it is still the one placed before removing it with its item.
public struct PlacedSubtitle: Codable, Sendable, Equatable {
    /// Its name in DIR.
    public let name: String
    public let bytes: Int64
    /// Its `dev:ino` and the digest of its bytes when placed (`MediaDirectory.PlacedIdentity`).
    public let fileID: String
    public let fingerprint: String

    public init(name: String, bytes: Int64, fileID: String, fingerprint: String) {
        self.name = name
        self.bytes = bytes
        self.fileID = fileID
        self.fingerprint = fingerprint
    }

    /// The most an item records: as many as it places (`SubtitleChoice.maximumRenditions`).
    static let limit = 32

    /// The column's JSON text; nil for none.
    static func encode(_ subtitles: [PlacedSubtitle]) -> String? {
        guard !subtitles.isEmpty, let data = try? JSONEncoder().encode(Array(subtitles.prefix(limit))) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The column's subtitles: none when it does not read (a store written by someone else is
    /// read as claiming nothing, not as an error that stops the delivery).
    static func decode(_ text: String?) -> [PlacedSubtitle] {
        guard let text, text.utf8.count <= 64 << 10,
              let decoded = try? JSONDecoder().decode([PlacedSubtitle].self, from: Data(text.utf8)) else { return [] }
        return Array(decoded.prefix(limit))
    }
}
