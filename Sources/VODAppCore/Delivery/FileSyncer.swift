import Foundation
import NIOConcurrencyHelpers

/// Makes finished bodies durable while the rest of the playlist is still arriving.
///
/// A crash must not leave a complete-looking name over blocks never written, so every body is
/// fsynced before it gets its real name. Done at the end, one after another, those fsyncs were
/// most of a small-file playlist's wall time; started as each transfer completes, on threads of
/// their own (libdispatch's global queue runs about one blocking call per core), they overlap the
/// transfers still running and share the file system's journal commits with each other.
final class FileSyncer: Sendable {
    /// Most fsyncs in flight at once.
    static let width = 16

    private struct State {
        var queue: [String] = []
        var workers = 0
        var errors: [String: String] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let group = DispatchGroup()

    /// Queues `path` for an fsync; called from the transfer thread as each body completes.
    func submit(_ path: String) {
        group.enter()
        let startWorker = state.withLockedValue { state -> Bool in
            state.queue.append(path)
            guard state.workers < Self.width else { return false }
            state.workers += 1
            return true
        }
        if startWorker {
            let thread = Thread { [self] in work() }
            thread.name = "vodapp-fsync"
            thread.start()
        }
    }

    /// Waits for every submitted fsync.
    /// - Returns: the error text of each file that could not be made durable.
    func wait() -> [String: String] {
        group.wait()
        return state.withLockedValue { $0.errors }
    }

    private func work() {
        while let path = state.withLockedValue({ state -> String? in
            if state.queue.isEmpty {
                state.workers -= 1
                return nil
            }
            return state.queue.removeFirst()
        }) {
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            if fd < 0 || fsync(fd) != 0 {
                let text = String(cString: strerror(errno))
                state.withLockedValue { $0.errors[path] = text }
            }
            if fd >= 0 { close(fd) }
            group.leave()
        }
    }
}
