import Foundation
import NIOConcurrencyHelpers
import VODAppBase
import VODAppDelivery
import VODAppReport
import VODAppTransferPolicy

/// A live view of a run on a terminal: one line per transfer (title, bytes, percentage when the
/// size is known, rate) and a total line with the time left in the budget, redrawn in place a few
/// times a second and erased at the end, so that only the summary stays.
///
/// It writes to its terminal only (standard error), never to standard output, which belongs to
/// the report. Whoever makes one checks that the descriptor is a terminal: see `forStandardError`.
public final class ProgressDisplay: TransferProgress {
    /// How often the view is redrawn.
    static let interval: Duration = .milliseconds(250)
    /// The most transfer lines drawn; the rest are counted on one line.
    static let mostLines = 8

    private struct Run {
        var titles: [String: String] = [:]
        var count = 0
        var budget: Budget?
        var snapshot = TransferSnapshot()
        /// Bytes and time of the last redraw, per transfer, and smoothed rates.
        var last: [String: Int64] = [:]
        var rates: [String: Double] = [:]
        var lastTotal: Int64 = 0
        var totalRate: Double = 0
        var lastDraw: ContinuousClock.Instant?
        /// Lines on the screen now, to be erased before the next frame.
        var drawn = 0
        var running = false
        /// Which `begin` the drawing thread belongs to: a thread of an earlier run stops.
        var generation = 0
    }

    private let descriptor: Int32
    private let state = NIOLockedValueBox(Run())

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A display on standard error when it is a terminal that can move its cursor (not `dumb`);
    /// nil otherwise: a pipe, a file or a webhook's capture gets no progress at all.
    public static func forStandardError(environment: [String: String] = ProcessInfo.processInfo.environment) -> ProgressDisplay? {
        guard isatty(STDERR_FILENO) == 1, let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return nil }
        return ProgressDisplay(descriptor: STDERR_FILENO)
    }

    /// Starts drawing the transfers of `titles` (item key to title) within `budget`.
    public func begin(titles: [String: String], budget: Budget) {
        let generation = state.withLockedValue { run in
            run = Run(titles: titles, count: titles.count, budget: budget, running: true, generation: run.generation + 1)
            return run.generation
        }
        let thread = Thread { [self] in
            while state.withLockedValue({ $0.running && $0.generation == generation }) {
                draw()
                Thread.sleep(forTimeInterval: Self.interval.inSeconds)
            }
        }
        thread.name = "vodapp-progress"
        thread.start()
    }

    /// Takes the latest state of the transfers (from the transfer thread).
    public func update(_ snapshot: TransferSnapshot) {
        state.withLockedValue { $0.snapshot = snapshot }
    }

    /// Stops drawing and erases what was drawn, before the summary is printed.
    public func end() {
        // Under the lock the drawer draws under, so that no frame follows the erasing.
        state.withLockedValue { run in
            run.running = false
            write(Self.erase(run.drawn))
            run.drawn = 0
        }
    }

    private func draw() {
        state.withLockedValue { run in
            guard run.running, let budget = run.budget else { return }
            let now = ContinuousClock.now
            let elapsed = run.lastDraw.map { $0.duration(to: now).inSeconds } ?? 0
            var total = run.snapshot.completedBytes
            var lines: [String] = []
            let width = Self.columns(of: descriptor)
            let titleWidth = max(12, min(48, width - 44))
            for transfer in run.snapshot.active {
                total += transfer.bytes
                // A transfer's rate shows from its second frame: the first has nothing to compare.
                if elapsed > 0, let previous = run.last[transfer.id] {
                    let instant = Double(max(0, transfer.bytes - previous)) / elapsed
                    run.rates[transfer.id] = Self.smooth(run.rates[transfer.id], instant)
                }
                run.last[transfer.id] = transfer.bytes
                guard lines.count < Self.mostLines else { continue }
                let title = TerminalText.fit(Self.title(of: transfer.id, in: run.titles), columns: titleWidth)
                var size = ByteSize.format(transfer.bytes)
                if let whole = transfer.total, whole > 0 {
                    size += " / " + ByteSize.format(whole)
                    size += String(format: " %3d%%", Int(min(100, transfer.bytes * 100 / whole)))
                }
                let rate = run.rates[transfer.id].map { ByteSize.format(Int64($0)) + "/s" } ?? ""
                lines.append("  " + title + "  " + size + String(repeating: " ", count: max(0, 26 - size.count)) + "  " + rate)
            }
            if run.snapshot.active.count > Self.mostLines {
                lines.append("  … and \(run.snapshot.active.count - Self.mostLines) more")
            }
            if elapsed > 0 {
                run.totalRate = Self.smooth(run.totalRate, Double(max(0, total - run.lastTotal)) / elapsed)
            }
            run.lastTotal = total
            run.lastDraw = now
            let left = max(0, now.duration(to: budget.end).inSeconds)
            lines.append(String(format: "  %d of %d done · %@ · %@/s · %.0f s left of the %g s budget",
                                run.snapshot.ended, run.count, ByteSize.format(total), ByteSize.format(Int64(run.totalRate)),
                                left.rounded(.up), budget.duration.inSeconds))
            let frame = lines.map { TerminalText.fit($0, columns: width - 1, pad: false) + "\n" }.joined()
            write(Self.erase(run.drawn) + frame)
            run.drawn = lines.count
        }
    }

    /// Moves up over `lines` drawn lines and clears from there to the end of the screen.
    private static func erase(_ lines: Int) -> String {
        lines > 0 ? "\u{1B}[\(lines)F\u{1B}[J" : ""
    }

    /// An exponential moving average: rates that do not jump with every frame.
    private static func smooth(_ previous: Double?, _ sample: Double) -> Double {
        previous.map { 0.7 * $0 + 0.3 * sample } ?? sample
    }

    private static func columns(of descriptor: Int32) -> Int {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    private func write(_ text: String) {
        guard !text.isEmpty else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

extension ProgressDisplay {
    /// An item's title; for a request an item added (an HLS segment, named `KEY/segment3`), the
    /// item's title and which part it is.
    static func title(of id: String, in titles: [String: String]) -> String {
        if let title = titles[id] { return title }
        let parts = id.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let title = titles[String(parts[0])] else { return id }
        return "\(title) (\(parts[1]))"
    }
}
