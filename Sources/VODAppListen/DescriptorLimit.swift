import Foundation

/// The process's limit on open descriptors (RLIMIT_NOFILE).
///
/// systemd and most shells start a process with a soft limit of 1,024 and a hard limit far above
/// it; the soft one is there for old `select()` code, which nothing here uses (NIO uses epoll,
/// libcurl poll). A listener raises it to the hard one, so many peers cost connections, not the
/// process.
public enum DescriptorLimit {
    /// RLIM_INFINITY, all ones, which Swift cannot import from its C macro.
    private static let infinity = rlim_t.max

    /// Raises the soft limit to the hard one and returns the limit now in force.
    @discardableResult
    public static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        // The kernel refuses more than fs.nr_open; an "unlimited" hard limit is asked as that.
        let wanted = limit.rlim_max == Self.infinity ? rlim_t(1 << 20) : limit.rlim_max
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 {
                limit = raised
            }
        }
        return limit.rlim_cur == Self.infinity ? 1 << 20 : Int(clamping: limit.rlim_cur)
    }
}
