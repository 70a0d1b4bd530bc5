import Foundation
import Testing
import VODAppMediaDirectory

/// Item locks as two deliveries see them: two `ItemLocks` on one real lock file are two open file
/// descriptions, which exclude each other as two processes do.
@Suite struct ItemLocksTests {
    private let path = NSTemporaryDirectory() + "/vodapp-locks-\(UInt32.random(in: 0...UInt32.max))"

    /// Letting go of some keys at once frees exactly those; once none is held, the one unlock of
    /// the whole file frees the last, and another delivery takes every key.
    @Test func keysLetGoTogetherAreFreeAndTheOthersStayHeld() throws {
        defer { unlink(path) }
        let first = try ItemLocks(path: path)
        let second = try ItemLocks(path: path)
        let keys = (0..<500).map { "item-\($0)" }
        #expect(keys.allSatisfy(first.take))
        #expect(!keys.contains(where: second.take))

        first.release(keys.prefix(300))
        #expect(keys.prefix(300).allSatisfy(second.take))
        #expect(!keys.dropFirst(300).contains(where: second.take))

        // A key not held, and one let go twice, change nothing.
        first.release(["never-taken", "item-0"])
        #expect(!keys.dropFirst(300).contains(where: second.take))

        first.release(keys.dropFirst(300))
        #expect(keys.dropFirst(300).allSatisfy(second.take))
        #expect(!keys.contains(where: first.take))
    }

    /// Each delivery sees when the oldest other running delivery began, to the millisecond, and
    /// never itself; a delivery whose locks went (ended, or killed) no longer counts; letting go
    /// of every key keeps the delivery running.
    @Test func theOldestOtherRunningDeliveryIsSeenUntilItEnds() throws {
        defer { unlink(path) }
        let base = Date(timeIntervalSince1970: 1_800_000_000.123)
        let early = try ItemLocks(path: path)
        let middle = try ItemLocks(path: path)
        let late = try ItemLocks(path: path)
        #expect(middle.othersRunningSince() == nil)

        middle.markRunning(since: base)
        late.markRunning(since: base + 5)
        #expect(Self.sameMillisecond(middle.othersRunningSince(), base + 5))
        #expect(Self.sameMillisecond(late.othersRunningSince(), base))
        #expect(Self.sameMillisecond(early.othersRunningSince(), base))

        early.markRunning(since: base - 60)
        #expect(Self.sameMillisecond(late.othersRunningSince(), base - 60))
        // One who only looks (a dry run) sees it too.
        #expect(Self.sameMillisecond(ItemLocks.observing(path: path)?.othersRunningSince(), base - 60))
        #expect(ItemLocks.observing(path: path + "-absent") == nil)
        #expect(Self.sameMillisecond(early.othersRunningSince(), base))

        // Keys taken and all let go at once: the whole-file unlock spares the mark.
        #expect(early.take("item"))
        early.release(["item"])
        #expect(Self.sameMillisecond(late.othersRunningSince(), base - 60))

        early.releaseAll()
        #expect(Self.sameMillisecond(late.othersRunningSince(), base))
        middle.releaseAll()
        #expect(late.othersRunningSince() == nil)
        #expect(middle.othersRunningSince() == nil)
    }

    /// Two deliveries begun in the same millisecond both run, and each sees the other.
    @Test func deliveriesBegunTogetherSeeEachOther() throws {
        defer { unlink(path) }
        let start = Date(timeIntervalSince1970: 1_800_000_000.5)
        let first = try ItemLocks(path: path)
        let second = try ItemLocks(path: path)
        first.markRunning(since: start)
        second.markRunning(since: start)
        #expect(Self.sameMillisecond(first.othersRunningSince(), start))
        #expect(Self.sameMillisecond(second.othersRunningSince(), start))
    }

    /// Marks are whole milliseconds, rounded down.
    private static func sameMillisecond(_ seen: Date?, _ start: Date) -> Bool {
        guard let seen else { return false }
        return (seen.timeIntervalSince1970 * 1000).rounded() == (start.timeIntervalSince1970 * 1000).rounded(.down)
    }
}
