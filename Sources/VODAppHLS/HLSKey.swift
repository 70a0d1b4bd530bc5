import VODAppModel

/// The `#EXT-X-KEY` that encrypts a segment (or an init section), with the IV to use for it.
/// A segment in clear has no HLSKey: `METHOD=NONE` is represented by nil.
public struct HLSKey: Sendable, Equatable {
    public enum Method: String, Sendable, Equatable {
        /// The whole segment is AES-128-CBC with PKCS7 padding: `HLSSegmentDecryption` undoes it.
        case aes128 = "AES-128"
        /// Samples inside the media are encrypted (usually FairPlay): vodapp cannot undo that.
        case sampleAES = "SAMPLE-AES"
        case sampleAESCTR = "SAMPLE-AES-CTR"
    }

    public let method: Method
    /// URI as the playlist wrote it (after resolving, when it resolves).
    public let uri: String
    /// The key's http(s) URL. Always present for an `identity` AES-128 key (the parser refuses
    /// one that does not resolve); may be nil for SAMPLE-AES and other key formats, whose URIs
    /// (`skd://…`, `data:…`) are for a DRM system, not for fetching.
    public let url: MediaURL?
    /// The 16-byte IV: the tag's IV attribute, else the segment's media sequence number as a
    /// 128-bit big-endian integer (RFC 8216 §5.2).
    public let iv: [UInt8]
    /// Whether `iv` came from the tag rather than the sequence number.
    public let hasExplicitIV: Bool
    /// KEYFORMAT; `identity` (the default) means the key URL serves the 16 raw key bytes.
    public let keyFormat: String

    public init(method: Method, uri: String, url: MediaURL?, iv: [UInt8], hasExplicitIV: Bool, keyFormat: String = "identity") {
        self.method = method
        self.uri = uri
        self.url = url
        self.iv = iv
        self.hasExplicitIV = hasExplicitIV
        self.keyFormat = keyFormat
    }

    /// Whether vodapp can decrypt what this key encrypts: AES-128 with a key served as raw bytes.
    public var isSupported: Bool { method == .aes128 && keyFormat == "identity" && url != nil }

    /// The IV RFC 8216 §5.2 prescribes when a KEY has none: the media sequence number as a
    /// 128-bit big-endian integer.
    public static func iv(forSequenceNumber number: UInt64) -> [UInt8] {
        [UInt8](repeating: 0, count: 8) + (0..<8).reversed().map { UInt8(truncatingIfNeeded: number >> ($0 * 8)) }
    }
}
