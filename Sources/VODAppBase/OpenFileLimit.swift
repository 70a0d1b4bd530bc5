import Foundation

/// The process's limit on open files (`RLIMIT_NOFILE`).
public enum OpenFileLimit {
    /// The soft limit: what `ulimit -n` shows, and where `open` starts failing with EMFILE.
    public static var current: UInt64 {
        var limit = rlimit()
        return getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? UInt64(limit.rlim_cur) : 0
    }

    /// RLIM_INFINITY, all ones, which Swift cannot import from its C macro.
    private static let infinity = rlim_t.max

    /// Raises the soft limit to the hard one, as a long-running server should: systemd and most
    /// shells start processes at 1,024 for the sake of `select`, which nothing here uses (NIO uses
    /// epoll, libcurl poll), so many peers cost connections, not the process.
    /// - Returns: the soft limit now in force.
    @discardableResult
    public static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        // The kernel refuses more than fs.nr_open; an "unlimited" hard limit is asked as that.
        let wanted = limit.rlim_max == infinity ? rlim_t(1 << 20) : limit.rlim_max
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 {
                limit = raised
            }
        }
        return limit.rlim_cur == infinity ? 1 << 20 : Int(clamping: limit.rlim_cur)
    }

    /// Descriptors a delivery holds whatever its size: standard streams, the store's connections
    /// and their journal files, the lock file, DIR.
    static let deliveryBase: UInt64 = 24
    /// Descriptors one transfer may hold at once: its socket, its file, the fsync of the last one.
    static let perTransfer: UInt64 = 3

    /// How many of `jobs` transfers fit under the current limit: a low `ulimit -n` slows a
    /// delivery down instead of failing its files with "Too many open files".
    package static func transfersThatFit(_ jobs: Int) -> Int {
        let limit = current
        guard limit > 0 else { return jobs }
        let room = limit > deliveryBase + perTransfer ? (limit - deliveryBase) / perTransfer : 1
        return Int(min(UInt64(jobs), max(1, room)))
    }
}
