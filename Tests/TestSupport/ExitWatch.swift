import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// The moment a child process ended, as the kernel reported it.
///
/// A child's pidfd turns readable as the child exits, before anything reaps it. A Dispatch source
/// on it notes the moment on a Dispatch thread, so tests that keep the cooperative pool busy
/// cannot make it late: the time limits the tests assert (a budget + 0.5 s, a signal's 1 s) are
/// measured to it.
final class ExitWatch: Sendable {
    private let moment = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    /// Watches the child whose pidfd is `processDescriptor`. swift-subprocess closes that
    /// descriptor once it has reaped the child, so the source watches a duplicate of its own.
    init(processDescriptor: CInt) {
        let descriptor = processDescriptor >= 0 ? fcntl(processDescriptor, F_DUPFD_CLOEXEC, 0) : -1
        // Without a pidfd (a kernel before 5.3), the moment is the one `note()` takes once the
        // child has been reaped.
        guard descriptor >= 0 else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .global())
        source.setEventHandler { [moment] in
            moment.withLockedValue { $0 = $0 ?? .now }
            source.cancel()
        }
        source.setCancelHandler { close(descriptor) }
        source.activate()
    }

    /// Notes now as the moment, unless the source noted an earlier one. Called once the child is
    /// reaped, which is never before it ended: the earlier of the two is the better estimate.
    func note() {
        moment.withLockedValue { $0 = $0 ?? .now }
    }

    /// When the child ended; nil while it runs.
    var endedAt: ContinuousClock.Instant? { moment.withLockedValue { $0 } }
}
