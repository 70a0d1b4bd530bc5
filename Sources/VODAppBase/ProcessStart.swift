import Foundation

/// When a process started, from the kernel's record: its `starttime` (field 22 of
/// /proc/PID/stat, in clock ticks since boot) against the boot-time clock now. Ticks are coarse
/// (10 ms) and whole, so an age is at most a tick long: a limit measured from it is never
/// flattered. One reading for vodapp's budget (`ProcessClock`) and the tests' children.
public enum ProcessStart {
    /// How long ago `pid` started; nil when its record cannot be read.
    public static func age(of pid: pid_t = getpid()) -> Duration? {
        var boot = timespec()
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              // The command name (field 2) is in parentheses and may hold spaces; count from after it.
              let nameEnd = stat.lastIndex(of: ")"),
              let ticks = stat[stat.index(after: nameEnd)...].split(separator: " ").dropFirst(19).first.flatMap({ Int64($0) }),
              case let hertz = Int64(sysconf(Int32(_SC_CLK_TCK))), hertz > 0,
              clock_gettime(CLOCK_BOOTTIME, &boot) == 0 else { return nil }
        return .seconds(boot.tv_sec) + .nanoseconds(boot.tv_nsec) - .milliseconds(ticks * 1000 / hertz)
    }
}
