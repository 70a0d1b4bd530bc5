import Foundation

/// When the process started: the budget counts from here.
///
/// From the kernel's record of the process's start (`/proc/self/stat`, in clock ticks since boot),
/// not from when Swift code first ran: a script that runs `vodapp --budget 3` counts from its own
/// `exec`, and on a loaded machine loading the binary and the runtime took tenths of a second
/// (a run cut at its 3 s budget ended 3.59 s after it was started). Where the record cannot be
/// read, the first moment Swift code sees.
public enum ProcessClock {
    public static let launch: ContinuousClock.Instant = {
        let now = ContinuousClock.now
        return age().map { now - $0 } ?? now
    }()

    /// How long ago the kernel started this process, to its clock's tick (10 ms); nil when it
    /// cannot be read or makes no sense.
    static func age() -> Duration? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let comm = stat.lastIndex(of: ")") else { return nil }
        // The fields after the command's name start at the third; `starttime` is the 22nd.
        let fields = stat[stat.index(after: comm)...].split(separator: " ")
        let hertz = sysconf(Int32(_SC_CLK_TCK))
        guard fields.count > 19, let ticks = Int64(fields[19]), hertz > 0 else { return nil }
        var boot = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &boot) == 0 else { return nil }
        let age = Duration.seconds(boot.tv_sec) + .nanoseconds(boot.tv_nsec) - .milliseconds(ticks * 1000 / Int64(hertz))
        // A process a minute old has not just started: something is off, and `now` is safer.
        guard age >= .zero, age < .seconds(60) else { return nil }
        return age
    }
}
