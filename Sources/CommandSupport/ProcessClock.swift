import Foundation

/// When the process started: the budget counts from here.
///
/// The kernel's record of the start, not the first line of Swift: loading the Swift runtime,
/// Foundation, libcurl and GLib takes a tenth of a second on an idle machine and several on a
/// loaded one, and the contract's "exits within budget + 0.5 s" is the process's, from its start.
public enum ProcessClock {
    public static let launch: ContinuousClock.Instant = {
        let now = ContinuousClock.now
        return kernelStart(now: now) ?? now
    }()

    /// The start as the kernel recorded it: `starttime` (field 22 of /proc/self/stat, clock ticks
    /// since boot) against the boot-time clock now. Whole ticks (10 ms) round it down, so the
    /// budget is at most a tick shorter, never longer.
    private static func kernelStart(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        var boot = timespec()
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              // The command name (field 2) is in parentheses and may hold spaces: count after it.
              let nameEnd = stat.lastIndex(of: ")"),
              let ticks = stat[stat.index(after: nameEnd)...].split(separator: " ").dropFirst(19).first.flatMap({ Double($0) }),
              clock_gettime(CLOCK_BOOTTIME, &boot) == 0 else { return nil }
        let age = Double(boot.tv_sec) + Double(boot.tv_nsec) / 1e9 - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
        // A start in the future, or minutes ago, is a clock that cannot be compared: not used.
        guard age >= 0, age < 60 else { return nil }
        return now - .seconds(age)
    }
}
