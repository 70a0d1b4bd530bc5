/// The bytes every generated sample body is made of (every body but `SampleMedia`'s real clips):
/// a fixed pseudo-random pattern whose period (131071, a prime) is not a power of two, so a body
/// shifted by a buffer's length, or spliced at the wrong offset on resume, does not compare equal
/// to the original.
public enum SampleContent {
    public static let period = 131_071

    /// The pattern, twice over, so that any run of up to `period` bytes starting anywhere in the
    /// first copy is one contiguous slice.
    static let doubledPattern: [UInt8] = {
        var state: UInt32 = 0x9E37_79B9
        var pattern = [UInt8](repeating: 0, count: period)
        for index in 0..<period {
            // xorshift32: fast and deterministic across platforms.
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            pattern[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        return pattern + pattern
    }()

    /// The body bytes in `range`.
    public static func bytes(_ range: Range<Int64>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(Int(range.count))
        var offset = range.lowerBound
        while offset < range.upperBound {
            let chunk = slice(from: offset, count: Int(min(Int64(period), range.upperBound - offset)))
            result.append(contentsOf: chunk)
            offset += Int64(chunk.count)
        }
        return result
    }

    /// The first `count` bytes of a body.
    public static func bytes(count: Int64) -> [UInt8] {
        bytes(0..<count)
    }

    /// Up to `period` bytes starting at `offset`, without copying the pattern.
    static func slice(from offset: Int64, count: Int) -> ArraySlice<UInt8> {
        let start = Int(offset % Int64(period))
        return doubledPattern[start..<(start + min(count, period))]
    }
}
