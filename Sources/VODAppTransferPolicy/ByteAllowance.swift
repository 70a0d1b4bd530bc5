import NIOConcurrencyHelpers

/// Bytes several transfers may write between them: an HLS item's segments arrive concurrently,
/// and the size limit is the whole item's. Each transfer claims its bytes as they arrive, before
/// they reach the disk, so the item stops at the limit, not at `--jobs` × the limit; bytes a
/// transfer throws away are given back.
public final class ByteAllowance: Sendable, Equatable {
    private let left: NIOLockedValueBox<Int64>

    public init(_ bytes: Int64) {
        left = NIOLockedValueBox(bytes)
    }

    /// The bytes left to claim.
    public var available: Int64 {
        left.withLockedValue { $0 }
    }

    /// Takes `count` bytes if that many are left; false, taking none, if not.
    public func claim(_ count: Int64) -> Bool {
        left.withLockedValue { left in
            guard count <= left else { return false }
            left -= count
            return true
        }
    }

    /// One allowance is the same only as itself: two items' are never the same bytes.
    public static func == (lhs: ByteAllowance, rhs: ByteAllowance) -> Bool { lhs === rhs }

    /// Gives back bytes claimed and then discarded.
    public func release(_ count: Int64) {
        left.withLockedValue { $0 += count }
    }
}
