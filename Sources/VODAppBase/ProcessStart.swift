import Foundation

/// When a process started, from the kernel's record: its `starttime` (field 22 of
/// /proc/PID/stat, in clock ticks since boot) against the boot-time clock now. Ticks are coarse
/// (10 ms) and whole, so an age is at most a tick long: a limit measured from it is never
/// flattered. One reading for vodapp's budget (`ProcessClock`) and the tests' children.
public enum ProcessStart {
    /// How long ago `pid` started; nil when its record cannot be read.
    public static func age(of pid: pid_t = getpid()) -> Duration? {
        var boot = timespec()
        guard let stat = record(of: pid),
              // The command name (field 2) is in parentheses and may hold spaces; count from after it.
              let nameEnd = stat.lastIndex(of: ")"),
              let ticks = stat[stat.index(after: nameEnd)...].split(separator: " ").dropFirst(19).first.flatMap({ Int64($0) }),
              case let hertz = Int64(sysconf(Int32(_SC_CLK_TCK))), hertz > 0,
              clock_gettime(CLOCK_BOOTTIME, &boot) == 0 else { return nil }
        return .seconds(boot.tv_sec) + .nanoseconds(boot.tv_nsec) - .milliseconds(ticks * 1000 / hertz)
    }

    /// `/proc/PID/stat`, read with one `read`: every start reads it, and Foundation's
    /// `String(contentsOfFile:)` took a tenth of a millisecond to.
    private static func record(of pid: pid_t) -> String? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // The record is one line of at most a few hundred bytes, read whole by the first read.
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
