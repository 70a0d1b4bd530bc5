import Glibc

/// Makes entries durable in batches, as a database's group commit does: a thread that commits
/// while another's flush is running waits for it, then the next flush takes every entry that
/// arrived meanwhile. Under load, one flush serves many entries; alone, an entry is flushed at
/// once, with no timer to wait for.
///
/// `commit` returns only once a flush that held its entry has returned, so what the caller does
/// next (release an item's lock, say that the file is there) comes after its entry is durable.
package final class GroupCommit<Entry: Sendable>: @unchecked Sendable {
    // `@unchecked`: every stored property below is read and written only with `mutex` held.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let flushed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let flush: @Sendable ([Entry]) -> Void
    /// Entries no flush has taken yet.
    private var waiting: [Entry] = []
    /// How many entries arrived, and how many of the first of them were flushed.
    private var arrived: UInt64 = 0
    private var done: UInt64 = 0
    private var flushing = false
    /// How many flushes ran, and the largest batch: for the debug log and the tests.
    private var flushes = 0
    private var largest = 0

    /// - Parameter flush: makes a batch durable; called on a committing thread, never two at once.
    package init(flush: @escaping @Sendable ([Entry]) -> Void) {
        self.flush = flush
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(flushed, nil)
    }

    deinit {
        pthread_cond_destroy(flushed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        flushed.deallocate()
    }

    /// Adds `entry` to the next batch and returns once that batch is flushed: flushing it on this
    /// thread when no flush is running, else waiting for the one that takes it.
    package func commit(_ entry: Entry) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        waiting.append(entry)
        arrived += 1
        let mine = arrived
        while done < mine {
            guard !flushing else {
                pthread_cond_wait(flushed, mutex)
                continue
            }
            flushing = true
            let batch = waiting
            let through = arrived
            waiting = []
            pthread_mutex_unlock(mutex)
            flush(batch)
            pthread_mutex_lock(mutex)
            done = through
            flushing = false
            flushes += 1
            largest = max(largest, batch.count)
            pthread_cond_broadcast(flushed)
        }
    }

    /// How many flushes served how many entries, the largest batch, and whether one is running.
    package var statistics: (flushes: Int, entries: UInt64, largest: Int, flushing: Bool) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return (flushes, done, largest, flushing)
    }

    /// Entries waiting for the next flush.
    package var queued: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return waiting.count
    }
}
