import Foundation

/// The process's limit on open files (`RLIMIT_NOFILE`).
public enum OpenFileLimit {
    /// The soft limit: what `ulimit -n` shows, and where `open` starts failing with EMFILE.
    public static var current: UInt64 {
        var limit = rlimit()
        return getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? UInt64(limit.rlim_cur) : 0
    }

    /// Raises the soft limit to the hard one, as a long-running server should: systemd and most
    /// shells start processes at 1,024 for the sake of `select`, which vodapp does not use.
    /// - Returns: the soft limit after the attempt.
    @discardableResult
    public static func raiseToHard() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }

    /// Descriptors a delivery holds whatever its size: standard streams, the store's connections
    /// and their journal files, the lock file, DIR.
    static let deliveryBase: UInt64 = 24
    /// Descriptors one transfer may hold at once: its socket, its file, the fsync of the last one.
    static let perTransfer: UInt64 = 3

    /// How many of `jobs` transfers fit under the current limit: a low `ulimit -n` slows a
    /// delivery down instead of failing its files with "Too many open files".
    static func transfersThatFit(_ jobs: Int) -> Int {
        let limit = current
        guard limit > 0 else { return jobs }
        let room = limit > deliveryBase + perTransfer ? (limit - deliveryBase) / perTransfer : 1
        return Int(min(UInt64(jobs), max(1, room)))
    }
}
