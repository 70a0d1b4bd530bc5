import Foundation
import NIOConcurrencyHelpers
import Testing
import VODAppBase

/// The group commit under the delivery's placing: every entry is flushed once, a commit returns
/// only after a flush that held its entry, flushes never overlap, and entries that arrive while a
/// flush runs go together in the next.
@Suite struct GroupCommitTests {
    /// What the flushes saw, in order.
    private final class Log: Sendable {
        let batches = NIOLockedValueBox<[[Int]]>([])
        let running = NIOLockedValueBox(0)
        let overlapped = NIOLockedValueBox(false)
    }

    @Test func aLoneCommitIsFlushedAtOnceOnItsOwnThread() {
        let log = Log()
        let commits = GroupCommit<Int> { batch in log.batches.withLockedValue { $0.append(batch) } }
        commits.commit(7)
        #expect(log.batches.withLockedValue { $0 } == [[7]])
        commits.commit(8)
        #expect(log.batches.withLockedValue { $0 } == [[7], [8]])
        #expect(commits.statistics.flushes == 2)
    }

    @Test func manyThreadsEachReturnAfterTheirEntryIsFlushedAndEveryEntryIsFlushedOnce() async {
        let log = Log()
        let commits = GroupCommit<Int> { batch in
            log.running.withLockedValue { running in
                if running > 0 { log.overlapped.withLockedValue { $0 = true } }
                running += 1
            }
            usleep(200)
            log.batches.withLockedValue { $0.append(batch) }
            log.running.withLockedValue { $0 -= 1 }
        }
        let count = 400
        let unflushedAtReturn = NIOLockedValueBox<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: count) { entry in
            commits.commit(entry)
            if !log.batches.withLockedValue({ $0.joined().contains(entry) }) {
                unflushedAtReturn.withLockedValue { $0.append(entry) }
            }
        }
        let flushed = log.batches.withLockedValue { $0.joined() }
        #expect(flushed.sorted() == Array(0..<count))
        #expect(unflushedAtReturn.withLockedValue { $0 }.isEmpty)
        #expect(!log.overlapped.withLockedValue { $0 })
        #expect(commits.statistics.entries == UInt64(count))
    }

    /// While one flush is held, every other committer waits, and the next flush takes all of
    /// them: known by waiting for the queue to hold them, not by timing.
    @Test func entriesArrivingDuringAFlushGoTogetherInTheNext() {
        let log = Log()
        let release = DispatchSemaphore(value: 0)
        let holding = NIOLockedValueBox(true)
        let commits = GroupCommit<Int> { batch in
            if holding.withLockedValue({ $0 }) {
                holding.withLockedValue { $0 = false }
                release.wait()
            }
            log.batches.withLockedValue { $0.append(batch) }
        }
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { commits.commit(0) }
        while commits.statistics.flushing == false { usleep(100) }
        for entry in 1...5 {
            DispatchQueue.global().async(group: group) { commits.commit(entry) }
        }
        while commits.queued < 5 { usleep(100) }
        release.signal()
        group.wait()
        let batches = log.batches.withLockedValue { $0 }
        #expect(batches.count == 2)
        #expect(batches.first == [0])
        #expect(batches.last?.sorted() == [1, 2, 3, 4, 5])
        #expect(commits.statistics.largest == 5)
    }
}
