import Foundation

/// How vodapp writes JSON for scripts: one line, keys sorted (stable for diffs and tests),
/// slashes left alone (URLs and paths stay readable), dates in ISO 8601.
public enum CompactJSON {
    /// `value` as one line of JSON, or nil when it cannot be encoded.
    public static func data(_ value: some Encodable) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try? encoder.encode(value)
    }

    /// The same as text, or `fallback` when it cannot be encoded.
    public static func text(_ value: some Encodable, fallback: String) -> String {
        data(value).map { String(decoding: $0, as: UTF8.self) } ?? fallback
    }
}
