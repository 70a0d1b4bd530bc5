import Dispatch
import Foundation
import NIOConcurrencyHelpers
import VODAppBase

/// SIGINT and SIGTERM: the first stops the transfers (keeping what can be resumed) so the run can
/// record its state and exit 130 or 143; a second exits at once. Either way the process is gone
/// within `grace` of the first: a second for a one-shot run, two for `listen`.
public final class SignalTrap: @unchecked Sendable {
    // @unchecked: `sources` is written once, in init, and only kept alive after that; dispatch
    // sources are themselves safe to use from any thread.
    private var sources: [any DispatchSourceSignal] = []
    private let received = NIOLockedValueBox<Int32?>(nil)
    /// Handed to the delivery: a signal asks it to stop.
    public let stop = StopRequest()

    /// How long a stopping run may take before the process is ended regardless: within the
    /// contract's second for a one-shot run.
    public static let oneShotGrace: Double = 0.9
    private let grace: Double

    public init(signals: [Int32] = [SIGINT, SIGTERM], grace: Double = oneShotGrace) {
        self.grace = grace
        let registered = DispatchSemaphore(value: 0)
        for number in signals {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.handle(number) }
            source.setRegistrationHandler { registered.signal() }
            #if canImport(Darwin)
            // kqueue sees the signal only once its default action (death) is off. On Linux,
            // dispatch installs a handler of its own: SIG_IGN there would let the kernel drop a
            // signal that arrives before the handler is in (swift-service-lifecycle does the same).
            signal(number, SIG_IGN)
            #endif
            source.resume()
            sources.append(source)
        }
        // Registration is asynchronous: a run that began before it would lose an early signal.
        for _ in signals {
            _ = registered.wait(timeout: .now() + 1)
        }
    }

    /// The exit code for the first signal received, if any: 128 + its number (130, 143).
    public var exitCode: Int32? {
        received.withLockedValue { $0.map { 128 + $0 } }
    }

    private func handle(_ number: Int32) {
        let first = received.withLockedValue { received -> Bool in
            guard received == nil else { return false }
            received = number
            return true
        }
        guard first else { _exit(128 + number) }
        stop.stop(because: number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)")
        // Whatever the run is doing (reading a payload, writing the store), it does not outlive
        // its promise.
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { _exit(128 + number) }
    }
}
