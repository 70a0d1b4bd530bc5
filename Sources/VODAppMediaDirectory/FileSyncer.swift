import Foundation
import NIOPosix
import SystemPackage
import VODAppBase

/// Makes finished bodies durable while the rest of the playlist is still arriving, and hands each
/// to what comes next (placing it) on the thread that synced it.
///
/// A crash must not leave a complete-looking name over blocks never written, so every body is
/// fsynced before it gets its real name. Done at the end, one after another, those fsyncs were
/// most of a small-file playlist's wall time; started as each transfer completes, on threads of
/// their own (libdispatch's global queue runs about one blocking call per core), they overlap the
/// transfers still running and share the file system's journal commits with each other.
package final class FileSyncer: Sendable {
    /// At most `width` fsyncs in flight at once (each holds a descriptor), on threads of NIO's
    /// thread pool, made for blocking work beside an event loop.
    private let pool: NIOThreadPool
    private let group = DispatchGroup()

    package init(width: Int = 16) {
        pool = NIOThreadPool(numberOfThreads: max(1, width))
        pool.start()
    }

    /// What to do once a file is durable, or why it could not be made so.
    package typealias Then = @Sendable (_ failure: String?) -> Void

    /// Queues `path` for an fsync, then `then`; called from the transfer thread as each body
    /// completes. A file that thread may rename meanwhile (an HLS segment, from `.part` to its
    /// name, right after it completes) is looked for at `renamedTo` when `path` has gone: a
    /// rename is atomic, so it is at one of the two.
    package func submit(_ path: String, renamedTo: String? = nil, then: Then? = nil) {
        perform {
            var failure: String?
            do throws(SafeFile.Failure) {
                let fd: Int32
                do throws(SafeFile.Failure) {
                    fd = try SafeFile.open(path, O_RDONLY)
                } catch {
                    guard let renamedTo, case .system(_, _, ENOENT) = error else { throw error }
                    fd = try SafeFile.open(renamedTo, O_RDONLY)
                }
                if fsync(fd) != 0 { failure = Errno(rawValue: errno).description }
                close(fd)
            } catch {
                failure = error.description
            }
            then?(failure)
        }
    }

    /// Runs `work` on one of the syncer's threads: the slow file work of finishing an item
    /// (joining an HLS item's segments) that must not hold up the transfer thread.
    package func perform(_ work: @escaping @Sendable () -> Void) {
        group.enter()
        pool.submit { [group] _ in
            // The pool is stopped only by `finish`, after this group is empty: every item runs.
            work()
            group.leave()
        }
    }

    /// Waits for everything submitted, and what followed it, then stops the threads.
    package func finish() {
        group.wait()
        try? pool.syncShutdownGracefully()
    }
}
