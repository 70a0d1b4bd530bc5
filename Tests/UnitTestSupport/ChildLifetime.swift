import Foundation
import NIOConcurrencyHelpers
import Subprocess
import VODAppBase

/// When a child process started and ended, as the kernel saw them.
///
/// The time limits the tests assert (a budget + 0.5 s, a signal's 1 s) are the child's: from the
/// moment the kernel made it to the moment it exited, not the time this process took to reach
/// the spawn or to notice the exit while the tests keep every thread busy.
/// - The start is the kernel's record of it (`starttime` in /proc/PID/stat, on the boot-time
///   clock), read while the child cannot yet have been reaped.
/// - The end is when the child's pidfd turns readable, which it does as the child exits, before
///   anything reaps it; a thread of its own polls it, since Dispatch's threads may all be busy.
package final class ChildLifetime: Sendable {
    private let ended = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
    /// When the child started; the instant `init` was called if the kernel's record is unreadable.
    let startedAt: ContinuousClock.Instant

    /// Watches the child `process`, from the body of a swift-subprocess run: it is not reaped
    /// before that body returns. swift-subprocess closes its pidfd once it has reaped the child,
    /// so the thread polls a duplicate of its own.
    package init(_ process: ProcessIdentifier) {
        let now = ContinuousClock.now
        startedAt = Self.kernelStart(of: process.value, now: now) ?? now
        let descriptor = process.processDescriptor >= 0 ? fcntl(process.processDescriptor, F_DUPFD_CLOEXEC, 0) : -1
        // Without a pidfd (a kernel before 5.3), the end is the moment `note()` takes once the
        // child has been reaped.
        guard descriptor >= 0 else { return }
        let thread = Thread { [ended] in
            var event = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&event, 1, -1) < 0 && errno == EINTR {}
            ended.withLockedValue { $0 = $0 ?? .now }
            close(descriptor)
        }
        thread.start()
    }

    /// Notes now as the end, unless the thread noted an earlier one. Called once the child is
    /// reaped, which is never before it ended: the earlier of the two is the better estimate.
    package func note() {
        ended.withLockedValue { $0 = $0 ?? .now }
    }

    /// When the child ended; nil while it runs.
    package var endedAt: ContinuousClock.Instant? { ended.withLockedValue { $0 } }

    /// The instant `pid` started, from the kernel's record (`ProcessStart`): at most a tick early,
    /// so a limit measured from it is never flattered.
    private static func kernelStart(of pid: pid_t, now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let age = ProcessStart.age(of: pid) else { return nil }
        return age >= .zero ? now - age : now
    }
}
