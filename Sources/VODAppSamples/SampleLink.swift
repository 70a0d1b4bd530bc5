import NIOConcurrencyHelpers
import NIOCore

/// One link shared by every response, like a slow home connection: bytes are booked on it in
/// turn, so concurrent bodies share its rate instead of each getting it whole.
final class SampleLink: Sendable {
    let rate: Int
    private let busyUntil = NIOLockedValueBox(NIODeadline.uptimeNanoseconds(0))

    init(rate: Int) {
        self.rate = rate
    }

    /// Bytes per booking: a twentieth of a second, so that bodies interleave finely.
    var chunk: Int { max(1024, rate / 20) }

    /// Books `count` bytes on the link and returns when they will have passed it.
    func book(_ count: Int) -> NIODeadline {
        busyUntil.withLockedValue { busy in
            let start = max(busy, .now())
            busy = start + .nanoseconds(Int64(count) * 1_000_000_000 / Int64(rate))
            return busy
        }
    }
}
