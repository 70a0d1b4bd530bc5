import VODAppModel

/// A sub-range of a resource, from `#EXT-X-BYTERANGE` or an `#EXT-X-MAP`'s BYTERANGE: `length`
/// bytes starting at `offset`, both resolved (an implicit offset has been filled in).
public struct HLSByteRange: Sendable, Equatable, CustomStringConvertible {
    public let offset: Int64
    public let length: Int64

    /// The parser guarantees `length > 0` and that `offset + length` fits in an Int64.
    public init(offset: Int64, length: Int64) {
        self.offset = offset
        self.length = length
    }

    /// The first byte after the range: where an implicit offset that follows it starts.
    public var end: Int64 { offset + length }

    /// The value of an HTTP `Range` header that asks for exactly these bytes.
    public var httpRange: String { "bytes=\(offset)-\(end - 1)" }

    public var description: String { "\(length)@\(offset)" }
}
