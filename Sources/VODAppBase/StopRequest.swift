import NIOConcurrencyHelpers

/// A request to stop every transfer now, from a signal handler's queue to the engine's thread.
///
/// An engine registers a way to wake its thread while it runs (libcurl's engine wakes
/// `curl_multi_poll` with `curl_multi_wakeup`, which libcurl documents as callable from any
/// thread); `stop` calls every one.
public final class StopRequest: Sendable {
    private struct State {
        var reason: String?
        /// Each running engine's wake-up, by a key of its own.
        var engines: [UInt: @Sendable () -> Void] = [:]
        var observers: [@Sendable (String) -> Void] = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Why the transfers must stop, once asked.
    public var reason: String? {
        state.withLockedValue { $0.reason }
    }

    /// Asks every running engine to cut its transfers, keeping what can be resumed.
    public func stop(because reason: String) {
        // Woken under the lock: an engine unregisters before it cleans its handle up, so no
        // wakeup can reach a freed one. A wake-up must not block (libcurl's writes to a socket
        // pair).
        let observers = state.withLockedValue { state -> [@Sendable (String) -> Void] in
            for wake in state.engines.values {
                wake()
            }
            guard state.reason == nil else { return [] }
            state.reason = reason
            defer { state.observers = [] }
            return state.observers
        }
        for observer in observers {
            observer(reason)
        }
    }

    /// Calls `observer` once with the reason when the stop is asked, at once when it already was:
    /// for what must stop besides transfers (a listener's receivers and queue).
    public func onStop(_ observer: @escaping @Sendable (String) -> Void) {
        let reason = state.withLockedValue { state -> String? in
            if state.reason == nil { state.observers.append(observer) }
            return state.reason
        }
        if let reason { observer(reason) }
    }

    /// Registers a running engine's wake-up under `key`, until `unregister(key)`.
    package func register(_ key: UInt, wake: @escaping @Sendable () -> Void) {
        state.withLockedValue { $0.engines[key] = wake }
    }

    package func unregister(_ key: UInt) {
        state.withLockedValue { _ = $0.engines.removeValue(forKey: key) }
    }
}
