import Synchronization

/// Which media files deliveries in this process are fetching right now.
///
/// A listener runs deliveries side by side, and two pushes of overlapping playlists must not fetch
/// one item twice at the same time. The first delivery to plan a file claims it; a later one waits
/// for that claim's outcome, within its own deadline, instead of fetching it again. Claims are
/// keyed by the final path, so two directories never share one.
public final class ItemClaims: Sendable {
    /// What a waiting delivery learns.
    public enum Wait: Sendable, Equatable {
        /// The holder finished with this report for the item.
        case finished(ItemReport)
        /// Nobody held the claim any more when the wait began.
        case notHeld
        /// The deadline came first.
        case deadline
    }

    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Wait, Never>
    }

    private struct State {
        var held: [String: [Waiter]] = [:]
        var nextWaiter = 0
        /// Waiters whose deadline passed before they registered.
        var expired: Set<Int> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Claims `path` for the caller. False when another delivery holds it.
    public func claim(_ path: String) -> Bool {
        state.withLock { state in
            guard state.held[path] == nil else { return false }
            state.held[path] = []
            return true
        }
    }

    /// Ends the caller's claim on `path` and tells every waiter how the item ended.
    public func release(_ path: String, outcome: ItemReport) {
        let waiters = state.withLock { $0.held.removeValue(forKey: path) } ?? []
        for waiter in waiters {
            waiter.continuation.resume(returning: .finished(outcome))
        }
    }

    /// How many deliveries wait for `path` (tests use it to release at a known moment).
    func waiterCount(for path: String) -> Int {
        state.withLock { $0.held[path]?.count ?? 0 }
    }

    /// Waits until the holder of `path` releases it, or until `deadline`.
    public func wait(for path: String, until deadline: ContinuousClock.Instant) async -> Wait {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskGroup(of: Wait?.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let immediate = self.state.withLock { state -> Wait? in
                        if state.expired.remove(id) != nil { return .deadline }
                        guard state.held[path] != nil else { return .notHeld }
                        state.held[path]?.append(Waiter(id: id, continuation: continuation))
                        return nil
                    }
                    if let immediate { continuation.resume(returning: immediate) }
                }
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                // Whether the sleep ended or was cancelled, take the waiter back so its
                // continuation is resumed exactly once: either here or by `release`.
                let waiter = self.state.withLock { state -> Waiter? in
                    guard let index = state.held[path]?.firstIndex(where: { $0.id == id }) else {
                        state.expired.insert(id)
                        return nil
                    }
                    return state.held[path]?.remove(at: index)
                }
                waiter?.continuation.resume(returning: .deadline)
                return nil
            }
            var answer = Wait.deadline
            for await result in group {
                if let result {
                    answer = result
                    group.cancelAll()
                }
            }
            state.withLock { _ = $0.expired.remove(id) }
            return answer
        }
    }
}
