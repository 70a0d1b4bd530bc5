import Dispatch
import Foundation
import NIOConcurrencyHelpers
import UnixSignals
import VODAppBase

/// SIGINT, SIGTERM and SIGHUP: the first stops the transfers (keeping what can be resumed) so the
/// run can record its state and exit 130, 143 or 129; a second exits at once. Either way the
/// process is gone within `grace` of the first: a second for a one-shot run, two for `listen`.
/// SIGHUP is how a closed terminal or a dropped ssh session ends a run: at its default, it ended
/// the process with no report, nothing recorded, and a partial body of unknown origin left for the
/// next run to throw away (eleventh attacker trial).
///
/// SIGTERM (or SIGHUP) again is the same request, not a second one, and so is SIGINT again within
/// `echo` of the first: GNU `timeout` signals the process and then its whole process group, so a
/// run it capped got two SIGTERMs at once and exited with no report (the seventh new-user trial).
/// Their handlers may run far apart on a loaded machine, so a repeated SIGTERM is never taken for
/// a second; a person's second Ctrl-C is. The grace still ends the process either way.
///
/// The signals arrive through dispatch signal sources on a queue of their own, registered before
/// `init` returns, so a signal that comes as the run begins is not lost. Not through a task: one
/// waits for a thread of the cooperative pool (two, on two cores), which a run's blocking work
/// can hold, and a loaded CI machine saw a process take no notice of SIGTERM and SIGINT for 5 s.
/// A trap lives as long as the process.
public final class SignalTrap: Sendable {
    private let received = NIOLockedValueBox<(number: Int32, at: ContinuousClock.Instant)?>(nil)
    private let sources: Sources
    private static let queue = DispatchQueue(label: "vodapp.signals")

    /// The sources, kept as long as the trap: never changed once made, and a source is safe to
    /// use from any thread (libdispatch), which the compiler cannot see.
    private final class Sources: @unchecked Sendable {
        let all: [any DispatchSourceSignal]
        init(_ all: [any DispatchSourceSignal]) { self.all = all }
    }
    /// Handed to the delivery: a signal asks it to stop.
    public let stop = StopRequest()

    /// How soon after the first the same signal is taken for the same request.
    public static let echo: Duration = .milliseconds(250)

    /// How long a stopping run may take before the process is ended regardless: within the
    /// contract's second for a one-shot run.
    public static let oneShotGrace: Double = 0.9
    private let grace: Double

    /// Returns once the signals are trapped. SIGHUP is left alone when the process started with
    /// it ignored: `nohup vodapp listen &` is asked to outlive the terminal, and must.
    public init(signals: [UnixSignal] = [.sigint, .sigterm, .sighup], grace: Double = oneShotGrace) async {
        self.grace = grace
        let trapped = signals.compactMap { signal -> (number: Int32, source: any DispatchSourceSignal)? in
            let number = signal.rawValue
            // The default action (the end of the process, with nothing recorded) gives way to
            // the source; the source sees the signal all the same.
            let found = Foundation.signal(number, SIG_IGN)
            if number == SIGHUP, unsafeBitCast(found, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { return nil }
            return (number, DispatchSource.makeSignalSource(signal: number, queue: Self.queue))
        }
        sources = Sources(trapped.map(\.source))
        for (number, source) in trapped {
            source.setEventHandler { [weak self] in self?.handle(number) }
            source.resume()
        }
    }

    /// The exit code for the first signal received, if any: 128 + its number (130, 143, 129).
    public var exitCode: Int32? {
        received.withLockedValue { $0.map { 128 + $0.number } }
    }

    private func handle(_ number: Int32) {
        enum Kind { case first, echo, second }
        let now = ContinuousClock.now
        let kind = received.withLockedValue { received -> Kind in
            guard let earlier = received else {
                received = (number, now)
                return .first
            }
            return earlier.number == number && (number != SIGINT || now - earlier.at < Self.echo) ? .echo : .second
        }
        switch kind {
        case .first: break
        case .echo: return
        case .second: _exit(128 + number)
        }
        stop.stop(because: Self.name(of: number))
        // Whatever the run is doing (reading a payload, writing the store), it does not outlive
        // its promise: on a dispatch queue, not the cooperative pool a blocked run may be using.
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { _exit(128 + number) }
    }

    /// The signal's name, for the report's reason.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}
