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
        state.withLockedValue { state in
            if state.reason == nil { state.reason = reason }
            for engine in state.engines {
                if let multi = UnsafeMutableRawPointer(bitPattern: engine.address) {
                    curl_multi_wakeup(multi)
                }
            }
        }
    }

    func register(_ multi: UnsafeMutableRawPointer) {
        state.withLockedValue { _ = $0.engines.insert(Wakeable(address: UInt(bitPattern: multi))) }
    }

    func unregister(_ multi: UnsafeMutableRawPointer) {
        state.withLockedValue { _ = $0.engines.remove(Wakeable(address: UInt(bitPattern: multi))) }
    }
}
