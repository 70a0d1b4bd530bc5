import Dispatch
import Logging
import NIOConcurrencyHelpers

/// Keeps a flood of one kind of warning (garbage datagrams, unsigned posts) from flooding what
/// the person running the listener sees (its `Attention`): the first few of each kind in a window
/// are written, the rest counted, and the count is written as one line when the window ends. 20 s of UDP garbage wrote 229,936 lines
/// before; now it writes a handful and a summary every 10 s.
package final class WarningLimiter: Sendable {
    private struct Window {
        var started: ContinuousClock.Instant
        var written = 0
        var suppressed = 0
    }

    private let windows = NIOLockedValueBox<[String: Window]>([:])
    private let perWindow: Int
    private let length: Duration

    private let attention: Attention

    package init(attention: Attention, perWindow: Int = 5, length: Duration = .seconds(10)) {
        self.attention = attention
        self.perWindow = perWindow
        self.length = length
    }

    /// Writes `message` as a warning unless `kind` has had its share of this window.
    package func warn(_ kind: String, _ message: @autoclosure () -> String, metadata: @autoclosure () -> Logger.Metadata = [:]) {
        let now = ContinuousClock.now
        let (write, summary, flushAt) = windows.withLockedValue { windows -> (Bool, Int, ContinuousClock.Instant?) in
            var window = windows[kind] ?? Window(started: now)
            var summary = 0
            if window.started.duration(to: now) >= length {
                summary = window.suppressed
                window = Window(started: now)
            }
            let write = window.written < perWindow
            if write { window.written += 1 } else { window.suppressed += 1 }
            windows[kind] = window
            // The first one held back: its window's count is written when the window ends, even
            // if no warning of the kind comes after it (a flood that stopped).
            return (write, summary, !write && window.suppressed == 1 ? window.started : nil)
        }
        if summary > 0 {
            report(summary, of: kind)
        }
        if write {
            attention.warn(message(), metadata: metadata())
        }
        if let flushAt {
            // On a dispatch queue, as `SignalTrap`'s grace, not on the cooperative pool: blocking
            // work that holds both of its threads (two cores) held the count back for 20 s and more.
            let delay = max(0, ContinuousClock.now.duration(to: flushAt + length).inSeconds)
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in flush(kind, windowStarted: flushAt) }
        }
    }

    /// Writes the count of `kind`'s window that began at `windowStarted`, if it is still owed.
    private func flush(_ kind: String, windowStarted: ContinuousClock.Instant) {
        let owed = windows.withLockedValue { windows -> Int in
            guard var window = windows[kind], window.started == windowStarted else { return 0 }
            defer {
                window.suppressed = 0
                windows[kind] = window
            }
            return window.suppressed
        }
        if owed > 0 { report(owed, of: kind) }
    }

    private func report(_ count: Int, of kind: String) {
        attention.warn("\(count) more \(kind) were not logged one by one in the last \(length)")
    }
}
