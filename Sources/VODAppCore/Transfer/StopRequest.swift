import CCurl
import NIOConcurrencyHelpers

/// A request to stop every transfer now, from a signal handler's queue to the engine's thread.
///
/// The engine registers its multi handle while it runs; `stop` wakes `curl_multi_poll` with
/// `curl_multi_wakeup`, which libcurl documents as callable from any thread.
public final class StopRequest: Sendable {
    /// The multi handle as an address: it is only ever passed to `curl_multi_wakeup`.
    private struct Wakeable: Sendable, Hashable {
        let address: UInt
    }

    private struct State {
        var reason: String?
        var engines: Set<Wakeable> = []
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
        // wakeup can reach a freed one. `curl_multi_wakeup` only writes to a socket pair.
        let observers = state.withLockedValue { state -> [@Sendable (String) -> Void] in
            for engine in state.engines {
                if let multi = UnsafeMutableRawPointer(bitPattern: engine.address) {
                    curl_multi_wakeup(multi)
                }
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

    func register(_ multi: UnsafeMutableRawPointer) {
        state.withLockedValue { _ = $0.engines.insert(Wakeable(address: UInt(bitPattern: multi))) }
    }

    func unregister(_ multi: UnsafeMutableRawPointer) {
        state.withLockedValue { _ = $0.engines.remove(Wakeable(address: UInt(bitPattern: multi))) }
    }
}
