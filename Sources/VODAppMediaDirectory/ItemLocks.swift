import Foundation
import NIOConcurrencyHelpers
import VODAppBase

/// One delivery's rights to fetch items into DIR, across every vodapp process and listener
/// delivery: open-file-description byte locks (`F_OFD_SETLK`) on `DIR/.vodapp/locks`, one byte per
/// key at an offset hashed from it, all taken through one descriptor.
///
/// Open-file-description locks belong to one `open`, so two deliveries in one process exclude each
/// other as two processes do, and the kernel drops them when their holder dies, so a crashed
/// process (SIGKILL) never leaves an item claimed. One descriptor for all of a delivery's keys
/// keeps a playlist of thousands of items within the default limit of 1,024 open files; one lock
/// file for all keys spares DIR an inode per item.
///
/// The same file says which deliveries are running, and since when (`markRunning`,
/// `othersRunningSince`): a shared lock on a byte above every key's, at an offset that is the
/// delivery's start in milliseconds. The kernel drops it with its holder, so a crashed delivery
/// never reads as running, and no clock guesses how long a delivery may still take.
package final class ItemLocks: Sendable {
    // Linux's values, the same on every architecture; Glibc's module does not export them.
    private static let getLock: Int32 = 36 // F_OFD_GETLK
    private static let setLock: Int32 = 37 // F_OFD_SETLK
    /// Where the start marks begin: every key's byte is below (`offset(of:)` < 2^62).
    private static let runningBase = 1 << 62

    private struct State {
        package var descriptor: Int32
        /// How many held keys share each locked byte: two keys whose hashes collide share one
        /// lock, which goes only when both are released.
        package var held: [Int: Int] = [:]
    }

    private let state: NIOLockedValueBox<State>

    /// Opens the lock file at `path`, creating it.
    /// - Throws: when it cannot be opened, or is not a regular file of one link.
    package init(path: String) throws(SafeFile.Failure) {
        state = NIOLockedValueBox(State(descriptor: try SafeFile.open(path, O_RDWR | O_CREAT)))
    }

    private init(descriptor: Int32) {
        state = NIOLockedValueBox(State(descriptor: descriptor))
    }

    /// The lock file at `path` opened only to look (`othersRunningSince`): nil when there is
    /// none. A dry run creates nothing and takes no lock.
    package static func observing(path: String) -> ItemLocks? {
        (try? SafeFile.open(path, O_RDONLY)).map(ItemLocks.init(descriptor:))
    }

    /// The locks of `directory`, whose work area exists.
    package static func open(in directory: MediaDirectory) throws(MediaDirectoryError) -> ItemLocks {
        do {
            return try ItemLocks(path: directory.lockPath)
        } catch {
            if error.isDescriptorExhaustion { throw .tooManyOpenFiles(directory.lockPath) }
            throw .directoryUnusable(path: directory.path, reason: error.description)
        }
    }

    deinit {
        releaseAll()
    }

    /// Takes the lock of `key` if no other delivery holds it.
    package func take(_ key: String) -> Bool {
        let offset = Self.offset(of: key)
        return state.withLockedValue { state in
            guard state.descriptor >= 0 else { return false }
            if let count = state.held[offset] {
                state.held[offset] = count + 1
                return true
            }
            guard Self.lock(state.descriptor, at: offset, type: F_WRLCK) else { return false }
            state.held[offset] = 1
            return true
        }
    }

    /// Takes the lock of `key` only if no delivery holds it, this process's included: for
    /// touching an item's kept data from outside any delivery of it (retention).
    package func takeUnheld(_ key: String) -> Bool {
        let offset = Self.offset(of: key)
        return state.withLockedValue { state in
            guard state.descriptor >= 0, state.held[offset] == nil,
                  Self.lock(state.descriptor, at: offset, type: F_WRLCK) else { return false }
            state.held[offset] = 1
            return true
        }
    }

    /// Waits for the lock of `key` until `deadline`, trying every 20 ms: holders keep it for one
    /// transfer, and a wait is cheaper than a second download.
    package func wait(for key: String, until deadline: ContinuousClock.Instant, stop: StopRequest?) async -> Bool {
        while true {
            if take(key) { return true }
            guard ContinuousClock.now < deadline, stop?.reason == nil else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Marks this delivery as running since `start` until its locks go (`releaseAll`, or the
    /// process's end). A shared lock, so two deliveries that began in the same millisecond both
    /// hold it.
    package func markRunning(since start: Date) {
        let offset = Self.runningOffset(start)
        state.withLockedValue { state in
            guard state.descriptor >= 0 else { return }
            _ = Self.lock(state.descriptor, at: offset, type: F_RDLCK)
        }
    }

    /// When the oldest delivery running beside this one (in this process or another) began; nil
    /// when none is. This descriptor's own mark never conflicts with its own query, so it is not
    /// seen: the kernel answers one conflicting lock per question, and each question asks only
    /// below the earliest found so far.
    package func othersRunningSince() -> Date? {
        state.withLockedValue { state in
            guard state.descriptor >= 0 else { return nil }
            var earliest: Int?
            // Asks for [runningBase, earliest) until nothing conflicts (length 0: to the end).
            while earliest.map({ $0 > Self.runningBase }) ?? true {
                var query = flock()
                query.l_type = Int16(F_WRLCK)
                query.l_whence = Int16(SEEK_SET)
                query.l_start = Self.runningBase
                query.l_len = earliest.map { $0 - Self.runningBase } ?? 0
                guard fcntl(state.descriptor, Self.getLock, &query) == 0, query.l_type != Int16(F_UNLCK) else { break }
                let found = max(Self.runningBase, query.l_start)
                if let earliest, found >= earliest { break }
                earliest = found
            }
            return earliest.map { Date(timeIntervalSince1970: Double($0 - Self.runningBase) / 1000) }
        }
    }

    /// The byte that marks a delivery begun at `start`: its milliseconds since 1970, rounded
    /// down, so that the mark is never later than anything the delivery recorded.
    static func runningOffset(_ start: Date) -> Int {
        runningBase + Int(max(0, (start.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// Lets the next delivery have the item.
    package func release(_ key: String) {
        let offset = Self.offset(of: key)
        state.withLockedValue { state in
            guard let count = state.held[offset], state.descriptor >= 0 else { return }
            if count > 1 {
                state.held[offset] = count - 1
            } else {
                state.held[offset] = nil
                _ = Self.lock(state.descriptor, at: offset, type: F_UNLCK)
            }
        }
    }

    /// Lets the next delivery have each of `keys`. The kernel walks every lock of the file at
    /// each unlock, so a delivery of thousands of items let go one by one spent a tenth of a
    /// second after its deadline: when no other key stays held, one unlock of the whole file
    /// drops them all.
    package func release(_ keys: some Sequence<String>) {
        state.withLockedValue { state in
            guard state.descriptor >= 0 else { return }
            var unlocked: [Int] = []
            for offset in keys.map(Self.offset(of:)) {
                guard let count = state.held[offset] else { continue }
                if count > 1 {
                    state.held[offset] = count - 1
                } else {
                    state.held[offset] = nil
                    unlocked.append(offset)
                }
            }
            if state.held.isEmpty, !unlocked.isEmpty {
                // Every key's byte, not the start mark above them: the delivery still runs.
                _ = Self.lock(state.descriptor, at: 0, length: Self.runningBase, type: F_UNLCK)
            } else {
                for offset in unlocked { _ = Self.lock(state.descriptor, at: offset, type: F_UNLCK) }
            }
        }
    }

    /// Drops every lock at once: closing the descriptor does.
    package func releaseAll() {
        state.withLockedValue { state in
            if state.descriptor >= 0 {
                close(state.descriptor)
                state.descriptor = -1
                state.held = [:]
            }
        }
    }

    /// Locks or unlocks `length` bytes at `offset` (0: to the end of any file).
    private static func lock(_ descriptor: Int32, at offset: Int, length: Int = 1, type: Int32) -> Bool {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = offset
        lock.l_len = length
        return fcntl(descriptor, setLock, &lock) == 0
    }

    /// FNV-1a of the key, kept positive for `off_t`: 2^62 bytes make a collision, which would
    /// only make two keys take turns, vanishingly rare.
    package static func offset(of key: String) -> Int {
        Int(FNV1a.hash(key) & 0x3fff_ffff_ffff_ffff)
    }
}
