import Foundation
import Testing
@testable import VODAppDeliveryPolicy
import VODAppStore

/// What --sync removes, as pure values: nothing before the push's set is complete, then what the
/// push does not name, never what another delivery recorded since this one began, and for a push
/// anyone could send only what such pushes brought.
@Suite struct SyncPlanTests {
    private let started = Date(timeIntervalSince1970: 1_800_000_000)

    private func record(_ key: String, _ state: StoredItem.State, final: Bool = false, vouched: Bool = true,
                        byVodapp: Bool = false, age: TimeInterval = 3600) -> StoredItem {
        var item = StoredItem(key: key, title: key, url: "https://example.com/\(key).mp4", state: state, path: "/d/\(key).mp4",
                              bytes: 10, attempts: 0, final: final, vouched: vouched, updatedAt: started.addingTimeInterval(-age))
        item.removedByVodapp = byVodapp
        return item
    }

    private func pushed(_ keys: String...) -> [PushedItem] {
        keys.enumerated().map { PushedItem(position: $0, key: $1, title: $1, subtitle: nil, vouched: true) }
    }

    @Test func aCompleteSetRemovesWhatItDoesNotName() {
        let plan = SyncPlan(pushed: pushed("a", "b"), found: ["a": record("a", .fetched), "b": record("b", .fetched)],
                            others: [record("old", .fetched, age: 10), record("older", .fetched, age: 20), record("cut", .partial),
                                     record("down", .failed), record("later", .deferred), record("big", .tooLarge), record("gone", .removed)],
                            runningSince: started, vouched: true)
        #expect(plan.pending.isEmpty)
        #expect(plan.files.map(\.key) == ["older", "old"])
        #expect(plan.unwanted.map(\.key) == ["cut", "down", "later"])
    }

    /// Items of the push that failed for want of room get the room of the files it does not
    /// name at once; the records of what holds no file wait for the set as before.
    @Test func aSetThatNeedsRoomTakesItFromWhatItDoesNotName() {
        let plan = SyncPlan(pushed: pushed("a", "b"), found: ["a": record("a", .fetched), "b": record("b", .failed)],
                            others: [record("old", .fetched, age: 10), record("cut", .partial), record("stranger", .fetched, vouched: false)],
                            runningSince: started, vouched: false, needsRoom: true)
        #expect(plan.pending == ["b"])
        #expect(plan.files.map(\.key) == ["stranger"])
        #expect(plan.unwanted.isEmpty)
    }

    @Test func whatMayStillArriveHoldsEveryRemoval() {
        let others = [record("old", .fetched)]
        for (state, final, byVodapp) in [(StoredItem.State.partial, false, false), (.failed, false, false), (.deferred, false, false),
                                         (.removed, false, true)] {
            let plan = SyncPlan(pushed: pushed("a", "b"), found: ["a": record("a", .fetched), "b": record("b", state, final: final, byVodapp: byVodapp)],
                                others: others, runningSince: started, vouched: true)
            #expect(plan.pending == ["b"], "\(state)")
            #expect(plan.files.isEmpty && plan.unwanted.isEmpty, "\(state)")
            // What goes once the push is complete, for a dry run to show.
            #expect(plan.unnamedFiles.map(\.key) == ["old"], "\(state)")
        }
        // Not recorded at all: it has not arrived.
        #expect(SyncPlan(pushed: pushed("a"), found: [:], others: others, runningSince: started, vouched: true).pending == ["a"])
    }

    @Test func whatCanNeverArriveDoesNotHoldTheRest() {
        for item in [record("b", .tooLarge), record("b", .failed, final: true), record("b", .removed)] {
            let plan = SyncPlan(pushed: pushed("a", "b"), found: ["a": record("a", .fetched), "b": item],
                                others: [record("old", .fetched)], runningSince: started, vouched: true)
            #expect(plan.pending.isEmpty, "\(item.state)")
            #expect(plan.files.map(\.key) == ["old"], "\(item.state)")
        }
    }

    @Test func whatAnotherDeliveryRecordedSinceThisOneBeganStays() {
        let plan = SyncPlan(pushed: pushed("a"), found: ["a": record("a", .fetched)],
                            others: [record("theirs", .fetched, age: -1), record("old", .fetched)], runningSince: started, vouched: true)
        #expect(plan.files.map(\.key) == ["old"])
    }

    @Test func anUnauthenticatedPushRemovesOnlyWhatSuchPushesBrought() {
        let plan = SyncPlan(pushed: pushed("a"), found: ["a": record("a", .fetched)],
                            others: [record("users", .fetched, vouched: true), record("strangers", .fetched, vouched: false)],
                            runningSince: started, vouched: false)
        #expect(plan.files.map(\.key) == ["strangers"])
    }

    @Test func anEmptyPushRemovesNothing() {
        let plan = SyncPlan(pushed: [], found: [:], others: [record("old", .fetched)], runningSince: started, vouched: true)
        #expect(plan.files.isEmpty && plan.unwanted.isEmpty)
    }
}
