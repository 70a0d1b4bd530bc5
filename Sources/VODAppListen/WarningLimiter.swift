import Logging
import NIOConcurrencyHelpers

/// Keeps a flood of one kind of warning (garbage datagrams, unsigned posts) from flooding the
/// log: the first few of each kind in a window are written, the rest counted, and the count is
/// written as one line when the next window begins. 20 s of UDP garbage wrote 229,936 lines
/// before; now it writes a handful and a summary every 10 s.
final class WarningLimiter: Sendable {
    private struct Window {
        var started: ContinuousClock.Instant
        var written = 0
        var suppressed = 0
    }

    /// The listener's: one per process, as there is one listener.
    static let listener = WarningLimiter()

    private let windows = NIOLockedValueBox<[String: Window]>([:])
    private let perWindow: Int
    private let length: Duration

    init(perWindow: Int = 5, length: Duration = .seconds(10)) {
        self.perWindow = perWindow
        self.length = length
    }

    /// Writes `message` as a warning unless `kind` has had its share of this window.
    func warn(_ kind: String, _ message: @autoclosure () -> Logger.Message, metadata: @autoclosure () -> Logger.Metadata? = nil,
              to logger: Logger) {
        let now = ContinuousClock.now
        let (write, summary) = windows.withLockedValue { windows -> (Bool, Int) in
            var window = windows[kind] ?? Window(started: now)
            var summary = 0
            if window.started.duration(to: now) >= length {
                summary = window.suppressed
                window = Window(started: now)
            }
            let write = window.written < perWindow
            if write { window.written += 1 } else { window.suppressed += 1 }
            windows[kind] = window
            return (write, summary)
        }
        if summary > 0 {
            logger.warning("\(summary) more \(kind) were not logged one by one in the last \(length)")
        }
        if write {
            logger.warning(message(), metadata: metadata())
        }
    }
}
