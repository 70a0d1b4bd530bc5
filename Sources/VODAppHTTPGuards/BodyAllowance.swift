import Logging
import NIOConcurrencyHelpers
import NIOCore
import VODAppBase

/// The request-body bytes the HTTP receiver may hold at once, over all requests.
///
/// A body must be read whole before its signature can be checked, so every request holds its
/// body for a moment; many at once must not add up to more than this. A request reserves its
/// declared length before a byte of its body is read. When the reservation does not fit, the
/// bodies that have been arriving longest (over `patience`: a real push arrives in milliseconds)
/// are cut to make room, their connections closed, as the connection roster does with
/// connections: peers that declare large bodies and trickle them cannot lock real pushes out
/// for longer than that. When nothing is that old, the request is refused at once (503).
package final class BodyAllowance: Sendable {
    package struct Reservation: Sendable {
        fileprivate let id: UInt64
        let bytes: Int
    }

    private struct Holder {
        let bytes: Int
        let since: ContinuousClock.Instant
        let channel: any Channel
    }

    private struct State {
        var reserved = 0
        var nextID: UInt64 = 0
        var holders: [UInt64: Holder] = [:]
    }

    let capacity: Int
    let patience: Duration
    private let warnings: WarningLimiter
    private let state = NIOLockedValueBox(State())

    package init(capacity: Int, patience: Duration = .seconds(2), warnings: WarningLimiter) {
        self.capacity = capacity
        self.patience = patience
        self.warnings = warnings
    }

    /// Reserves `bytes` for the request on `channel`, cutting bodies that have taken longer than
    /// `patience` when that makes room; nil when it cannot.
    package func reserve(_ bytes: Int, for channel: any Channel) -> Reservation? {
        let now = ContinuousClock.now
        let (reservation, cut) = state.withLockedValue { state -> (Reservation?, [any Channel]) in
            var victims: [UInt64] = []
            var free = capacity - state.reserved
            if bytes > free {
                let overdue = state.holders.filter { now - $0.value.since > patience }.sorted { $0.value.since < $1.value.since }
                for (id, holder) in overdue where bytes > free {
                    victims.append(id)
                    free += holder.bytes
                }
                guard bytes <= free else { return (nil, []) }
            }
            let cut = victims.compactMap { state.holders.removeValue(forKey: $0) }
            state.reserved -= cut.reduce(0) { $0 + $1.bytes }
            state.nextID += 1
            state.holders[state.nextID] = Holder(bytes: bytes, since: now, channel: channel)
            state.reserved += bytes
            return (Reservation(id: state.nextID, bytes: bytes), cut.map(\.channel))
        }
        for channel in cut {
            warnings.warn("slow HTTP push bodies cut to make room",
                          "closed an HTTP connection to make room: its body took over \(patience) while \(capacity) bytes of bodies were being received",
                          metadata: ["from": "http \(channel.remoteAddress.map(\.shown) ?? "unknown peer")"])
            channel.close(promise: nil)
        }
        return reservation
    }

    /// Gives the bytes back; nothing when they were taken back to make room.
    package func release(_ reservation: Reservation) {
        state.withLockedValue { state in
            if let holder = state.holders.removeValue(forKey: reservation.id) {
                state.reserved -= holder.bytes
            }
        }
    }
}
