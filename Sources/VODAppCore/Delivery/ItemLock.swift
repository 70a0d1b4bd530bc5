import Foundation
import NIOConcurrencyHelpers

/// The right to fetch one item into DIR, across every vodapp process and listener delivery: an
/// open-file-description byte lock (`F_OFD_SETLK`) on one byte of `DIR/.vodapp/locks`, at an
/// offset hashed from the key.
///
/// Open-file-description locks belong to one `open`, so two deliveries in one process exclude each
/// other as two processes do, and the kernel drops them when their holder dies, so a crashed
/// process (SIGKILL) never leaves an item claimed. One lock file for all keys, rather than one per
/// key, spares DIR a new inode per item: creating them was most of the cost of a playlist of many
/// small files.
final class ItemLock: Sendable {
    // Linux's values, the same on every architecture; Glibc's module does not export them.
    private static let setLock: Int32 = 37 // F_OFD_SETLK

    private let descriptor: NIOLockedValueBox<Int32>

    private init(descriptor: Int32) {
        self.descriptor = NIOLockedValueBox(descriptor)
    }

    deinit {
        release()
    }

    /// Takes the lock of `key` in the lock file at `path` if nobody holds it; nil when somebody
    /// does or the file cannot be opened.
    static func take(_ key: String, in path: String) -> ItemLock? {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return nil }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = offset(of: key)
        lock.l_len = 1
        guard fcntl(fd, setLock, &lock) == 0 else {
            close(fd)
            return nil
        }
        return ItemLock(descriptor: fd)
    }

    /// Waits for the lock of `key` until `deadline`, trying every 20 ms: holders keep it for one
    /// transfer, and a wait is cheaper than a second download.
    static func wait(for key: String, in path: String, until deadline: ContinuousClock.Instant, stop: StopRequest?) async -> ItemLock? {
        while true {
            if let lock = take(key, in: path) { return lock }
            guard ContinuousClock.now < deadline, stop?.reason == nil else { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Lets the next delivery have the item: closing the descriptor drops its lock.
    func release() {
        descriptor.withLockedValue { fd in
            if fd >= 0 {
                close(fd)
                fd = -1
            }
        }
    }

    /// FNV-1a of the key, kept positive for `off_t`: 2^62 bytes make a collision, which would
    /// only make two keys take turns, vanishingly rare.
    static func offset(of key: String) -> Int {
        Int(FNV1a.hash(key) & 0x3fff_ffff_ffff_ffff)
    }
}
