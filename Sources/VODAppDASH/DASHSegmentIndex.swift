import VODAppHLS
import VODAppModel

/// The segments of a `SegmentBase` representation, read from its Segment Index box (`sidx`,
/// ISO/IEC 14496-12 §8.16.3) at the manifest's `indexRange`: each reference is one segment, a
/// byte range of the same file. Pure: the index's bytes in, the segments out.
public enum DASHSegmentIndex {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case noIndex
        case truncated
        /// A reference to another `sidx` (a hierarchical index), which vodapp does not follow.
        case hierarchical
        case tooManySegments(count: Int, limit: Int)

        public var description: String {
            switch self {
            case .noIndex: "the bytes at its indexRange hold no segment index (sidx)"
            case .truncated: "its segment index (sidx) is cut short"
            case .hierarchical: "its segment index (sidx) points to further indexes, which vodapp does not follow"
            case .tooManySegments(let count, let limit): "its segment index lists \(count) segments, more than the \(limit) vodapp fetches for one item"
            }
        }
    }

    /// - Parameters:
    ///   - bytes: the bytes of `indexRange`, which start at `offset` in the file.
    ///   - url: the file, which each segment is a range of.
    public static func segments(in bytes: [UInt8], at offset: Int64, of url: MediaURL, limit: Int) throws(Failure) -> [DASHSegmentReference] {
        var reader = Reader(bytes: bytes)
        // Boxes before the index (a `styp`) are passed.
        while true {
            guard reader.remaining >= 8 else { throw .noIndex }
            let boxStart = reader.position
            var size = Int64(try reader.uint32())
            let type = try reader.uint32()
            if size == 1 { size = Int64(bitPattern: try reader.uint64()) }
            guard size >= 8 else { throw .noIndex }
            if type == 0x7369_6478 { // "sidx"
                let boxEnd = Int64(boxStart) + size
                let version = try reader.uint8()
                try reader.skip(3 + 4) // flags, reference_ID
                let timescale = Double(max(1, try reader.uint32()))
                let firstOffset: Int64
                if version == 0 {
                    try reader.skip(4)
                    firstOffset = Int64(try reader.uint32())
                } else {
                    try reader.skip(8)
                    firstOffset = Int64(bitPattern: try reader.uint64())
                }
                try reader.skip(2)
                let count = Int(try reader.uint16())
                guard count <= limit else { throw .tooManySegments(count: count, limit: limit) }
                guard firstOffset >= 0, boxEnd <= Int64.max / 2 - firstOffset else { throw .truncated }
                // The first segment starts after the index box, `first_offset` further on.
                var start = offset + boxEnd + firstOffset
                var segments: [DASHSegmentReference] = []
                segments.reserveCapacity(count)
                for _ in 0..<count {
                    let word = try reader.uint32()
                    guard word & 0x8000_0000 == 0 else { throw .hierarchical }
                    let length = Int64(word & 0x7FFF_FFFF)
                    let duration = Double(try reader.uint32()) / timescale
                    try reader.skip(4)
                    guard length > 0 else { throw .truncated }
                    segments.append(DASHSegmentReference(url: url, range: HLSByteRange(offset: start, length: length), duration: duration))
                    start += length
                }
                return segments
            }
            guard size <= Int64(reader.remaining + (reader.position - boxStart)) else { throw .noIndex }
            try reader.skip(Int(size) - (reader.position - boxStart))
        }
    }

    /// Big-endian fields, one after another.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var remaining: Int { bytes.count - position }

        mutating func skip(_ count: Int) throws(Failure) {
            guard count >= 0, count <= remaining else { throw .truncated }
            position += count
        }

        mutating func uint8() throws(Failure) -> UInt8 {
            guard remaining >= 1 else { throw .truncated }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func uint16() throws(Failure) -> UInt16 {
            UInt16(try uint8()) << 8 | UInt16(try uint8())
        }

        mutating func uint32() throws(Failure) -> UInt32 {
            UInt32(try uint16()) << 16 | UInt32(try uint16())
        }

        mutating func uint64() throws(Failure) -> UInt64 {
            UInt64(try uint32()) << 32 | UInt64(try uint32())
        }
    }
}
