import Foundation

/// When the process started: the budget counts from here.
///
/// The kernel's own start time of the process, not the moment Swift code first runs: loading the
/// libraries and a debug build's start-up took 0.3 s, and over a second on a loaded machine, that
/// the budget did not count, so a run could end past its budget as a caller measures it.
public enum ProcessClock {
    public static let launch: ContinuousClock.Instant = {
        let now = ContinuousClock.now
        guard let age = processAge() else { return now }
        return now - age
    }()

    /// How long ago the kernel started this process: `/proc/self/stat`'s start time (clock ticks
    /// since boot) against `CLOCK_BOOTTIME`. Nil when either cannot be read, or the answer is not
    /// a few seconds at most (a clock that jumped).
    static func processAge() -> Duration? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)", fields from the third on; the start time is the 22nd.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        var now = timespec()
        guard perSecond > 0, clock_gettime(CLOCK_BOOTTIME, &now) == 0 else { return nil }
        let age = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - ticks / perSecond
        guard age >= 0, age < 30 else { return nil }
        return .seconds(age)
    }
}
