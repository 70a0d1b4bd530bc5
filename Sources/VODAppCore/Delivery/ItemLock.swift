import Foundation
import Synchronization

/// The right to fetch one item into DIR, across every vodapp process and listener delivery:
/// an exclusive `flock` on `DIR/.vodapp/locks/KEY.lock`.
///
/// `flock` locks belong to an open file description, so two deliveries in one process exclude
/// each other as two processes do, and the kernel drops a lock when its holder dies, so a crashed
/// process (SIGKILL) never leaves an item claimed forever.
final class ItemLock: Sendable {
    private let descriptor: Mutex<Int32>

    private init(descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        release()
    }

    /// Takes the lock at `path` if nobody holds it; nil when somebody does or it cannot be made.
    static func take(_ path: String) -> ItemLock? {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return ItemLock(descriptor: fd)
    }

    /// Waits for the lock at `path` until `deadline`, trying every 20 ms: holders keep it for one
    /// transfer, and a wait is cheaper than a second download.
    static func wait(for path: String, until deadline: ContinuousClock.Instant, stop: StopRequest?) async -> ItemLock? {
        while true {
            if let lock = take(path) { return lock }
            guard ContinuousClock.now < deadline, stop?.reason == nil else { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Lets the next delivery have the item. The lock file stays: removing it would let two
    /// processes lock two different files of the same name.
    func release() {
        descriptor.withLock { fd in
            if fd >= 0 {
                close(fd)
                fd = -1
            }
        }
    }
}
