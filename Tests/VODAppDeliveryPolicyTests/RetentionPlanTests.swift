import Foundation
import Testing
@testable import VODAppDeliveryPolicy

/// What retention chooses, as values: what goes, in which order, why, and what it says when a
/// limit cannot be met.
@Suite struct RetentionPlanTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let mebibyte: Int64 = 1 << 20

    private func file(_ mebibytes: Int64 = 1, daysOld: Double, vouched: Bool = true, kept: RetentionPlan.Keep? = nil) -> RetentionPlan.Entry {
        RetentionPlan.Entry(bytes: mebibytes * Self.mebibyte, modified: Self.now.addingTimeInterval(-daysOld * 86_400), vouched: vouched, kept: kept)
    }

    private func partial(_ mebibytes: Int64 = 1, daysOld: Double, kept: RetentionPlan.Keep? = nil) -> RetentionPlan.Entry {
        RetentionPlan.Entry(bytes: mebibytes * Self.mebibyte, modified: Self.now.addingTimeInterval(-daysOld * 86_400), vouched: true,
                            partial: true, kept: kept)
    }

    private func plan(_ entries: [RetentionPlan.Entry], keepDays: Int? = nil, maximumTotal: Int64? = nil, minimumFree: Int64? = nil,
                      free: Int64? = nil, vouched: Bool = true) -> RetentionPlan {
        RetentionPlan(entries: entries, policy: RetentionPolicy(keepDays: keepDays, maximumTotal: maximumTotal, minimumFree: minimumFree),
                      freeBytes: free, now: Self.now, vouched: vouched, directory: "/v")
    }

    @Test func noLimitRemovesNothing() {
        let chosen = plan([file(daysOld: 400), partial(daysOld: 400)])
        #expect(chosen.removals.isEmpty && chosen.warnings.isEmpty)
    }

    @Test func byAgeEverythingOlderGoesWhateverItsOrder() {
        let chosen = plan([file(daysOld: 1), file(daysOld: 9), file(daysOld: 8), file(daysOld: 6.9)], keepDays: 7)
        #expect(chosen.removals == [.init(entry: 1, reason: "older than 7 days (--keep-days 7)"),
                                    .init(entry: 2, reason: "older than 7 days (--keep-days 7)")])
        #expect(plan([file(daysOld: 1.5)], keepDays: 1).removals.map(\.reason) == ["older than 1 day (--keep-days 1)"])
    }

    @Test func byTotalPartialsGoFirstThenTheOldestFiles() {
        let entries = [file(daysOld: 3), file(daysOld: 5), partial(daysOld: 0.1), file(daysOld: 1)]
        let chosen = plan(entries, maximumTotal: 2 * Self.mebibyte)
        #expect(chosen.removals.map(\.entry) == [2, 1])
        #expect(chosen.removals.first?.reason == "to keep vodapp's files within 2.0 MiB (--max-total)")
        #expect(chosen.warnings.isEmpty)
    }

    /// What is kept still counts toward the total; when only kept files are left, the warning
    /// says why each kind stays.
    @Test func keptFilesCountAndTheWarningSaysWhy() {
        let entries = [file(daysOld: 9, kept: .thisDelivery), file(daysOld: 8, kept: .running), file(daysOld: 7),
                       partial(daysOld: 6, kept: .busy)]
        let chosen = plan(entries, maximumTotal: Self.mebibyte)
        #expect(chosen.removals.map(\.entry) == [2])
        #expect(chosen.warnings == ["vodapp's files in /v take 3.0 MiB, over --max-total 1.0 MiB, and none is left that retention may "
                                    + "remove: kept are 1 file of this delivery and 1 file of deliveries still running"])
    }

    /// An unauthenticated push removes only what such pushes brought, and those go first.
    @Test func anUnvouchedPushRemovesOnlyUnvouchedFiles() {
        let entries = [file(daysOld: 9, vouched: true), file(daysOld: 2, vouched: false), file(daysOld: 1, vouched: false)]
        #expect(plan(entries, maximumTotal: Self.mebibyte).removals.map(\.entry) == [1, 2])
        let unvouched = plan(entries, maximumTotal: 0, vouched: false)
        #expect(unvouched.removals.map(\.entry) == [1, 2])
        #expect(unvouched.warnings.first?.hasSuffix("kept are 1 file that a payload file, a poll or a signed push named, which an "
                                                    + "unauthenticated push such as this one may not make room by removing") == true)
    }

    /// --min-free counts what the limits before it removed: nothing more goes for it then (it
    /// used to remove for the floor as if the files chosen by age were still there).
    @Test func byFreeSpaceCountsWhatTheOtherLimitsRemoved() {
        let entries = [file(2, daysOld: 10), file(daysOld: 3), file(daysOld: 2)]
        let chosen = plan(entries, keepDays: 7, minimumFree: 3 * Self.mebibyte, free: Self.mebibyte)
        #expect(chosen.removals.map(\.entry) == [0])
        let more = plan(entries, keepDays: 7, minimumFree: 4 * Self.mebibyte, free: Self.mebibyte)
        #expect(more.removals.map(\.entry) == [0, 1])
        #expect(more.removals.last?.reason == "to keep 4.0 MiB free on its file system (--min-free)")
    }

    @Test func aFloorThatCannotBeMetIsSaid() {
        let chosen = plan([file(daysOld: 1, kept: .thisDelivery)], minimumFree: 5 * Self.mebibyte, free: Self.mebibyte)
        #expect(chosen.removals.isEmpty)
        #expect(chosen.warnings == ["/v has 1.0 MiB free, under --min-free 5.0 MiB, and no file of vodapp's is left that retention may "
                                    + "remove: kept are 1 file of this delivery; other files take the rest"])
        // Free space unknown: the floor removes nothing and says nothing.
        #expect(plan([file(daysOld: 1)], minimumFree: 5 * Self.mebibyte, free: nil).removals.isEmpty)
    }

    /// Each reason only when it applied (the new-user trial was told of signed pushes when none
    /// had come).
    @Test func onlyTheReasonsThatAppliedAreGiven() {
        #expect(RetentionPlan.keptReasons(thisDelivery: 1, running: 0, vouchedFor: 0) == "1 file of this delivery")
        #expect(RetentionPlan.keptReasons(thisDelivery: 0, running: 3, vouchedFor: 0) == "3 files of deliveries still running")
        #expect(RetentionPlan.keptReasons(thisDelivery: 2, running: 1, vouchedFor: 4)
                == "2 files of this delivery, 1 file of deliveries still running and "
                + "4 files that a payload file, a poll or a signed push named, which an unauthenticated push such as this one may "
                + "not make room by removing")
        #expect(RetentionPlan.keptReasons(thisDelivery: 0, running: 0, vouchedFor: 0) == "no file of vodapp's")
    }
}
