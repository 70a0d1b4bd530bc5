import Foundation
import NIOConcurrencyHelpers

/// How long SQLite may wait for a lock another connection holds: until the earliest deadline of
/// the store's operations under way.
///
/// SQLite's busy handler belongs to a connection, not to a call, and GRDB runs calls on its own
/// queues, so the deadline cannot travel with the call: each operation registers its deadline here
/// for as long as it runs, and the handler of every connection gives up at the earliest. A busy
/// store then costs the operation (a warning) and never a delivery's budget.
final class StoreWaitLimit: Sendable {
    /// The wait of an operation that names no deadline (`vodapp status`).
    static let defaultWait: Duration = .seconds(5)
    /// How long the handler sleeps between tries: other writers hold the lock for milliseconds.
    static let pause: Duration = .milliseconds(10)

    private struct State {
        var next = 0
        var deadlines: [Int: ContinuousClock.Instant] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Runs `body` with its waits for locks bounded by `deadline` (by `defaultWait` from now when
    /// nil).
    func during<T>(until deadline: ContinuousClock.Instant?, _ body: () throws -> T) rethrows -> T {
        let limit = deadline ?? .now + Self.defaultWait
        let id = state.withLockedValue { state in
            state.next += 1
            state.deadlines[state.next] = limit
            return state.next
        }
        defer { _ = state.withLockedValue { $0.deadlines.removeValue(forKey: id) } }
        return try body()
    }

    /// SQLite's busy handler: whether to try the lock again, after a short sleep.
    func retry(tries: Int) -> Bool {
        let now = ContinuousClock.now
        // A connection busy outside any registered operation (GRDB's own housekeeping) gets the
        // default wait, counted in tries.
        let limit = state.withLockedValue { $0.deadlines.values.min() }
            ?? now + Self.defaultWait - Self.pause * tries
        let left = now.duration(to: limit)
        guard left > .zero else { return false }
        let pause = min(Self.pause, left)
        usleep(UInt32(max(1, pause.microseconds)))
        return true
    }
}
