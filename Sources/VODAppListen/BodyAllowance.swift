import NIOConcurrencyHelpers

/// The request-body bytes the HTTP receiver may hold at once, over all requests.
///
/// A body must be read whole before its signature can be checked, so every request holds its
/// body for a moment; many at once must not add up to more than this. A request reserves its
/// declared length before a byte of its body is read, and is refused (503) when the reservation
/// does not fit, rather than wait for room.
final class BodyAllowance: Sendable {
    let capacity: Int
    private let reserved = NIOLockedValueBox(0)

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Reserves `bytes`, or returns false when they do not fit beside the others' reservations.
    func reserve(_ bytes: Int) -> Bool {
        reserved.withLockedValue { reserved in
            guard bytes <= capacity - reserved else { return false }
            reserved += bytes
            return true
        }
    }

    func release(_ bytes: Int) {
        reserved.withLockedValue { $0 -= bytes }
    }
}
