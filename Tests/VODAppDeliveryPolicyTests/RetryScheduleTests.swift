import Foundation
import Testing
@testable import VODAppDeliveryPolicy
import VODAppDevice
import VODAppStore

/// Which unfinished items a listener retries without a push, and when it looks again: the
/// schedule as a pure value, for every state, the device's conditions and the listener's memory.
@Suite struct RetryScheduleTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func record(_ key: String, _ state: StoredItem.State, next: TimeInterval? = nil, final: Bool = false,
                        vouched: Bool = true, url: String? = nil, updated: TimeInterval = -100) -> StoredItem {
        var item = StoredItem(key: key, title: "Title \(key)", url: url ?? "https://example.com/\(key).mp4", state: state, attempts: 1,
                              nextAttemptAt: next.map { now.addingTimeInterval($0) }, final: final, vouched: vouched,
                              updatedAt: now.addingTimeInterval(updated))
        item.subtitle = "sub \(key)"
        return item
    }

    private func schedule(_ items: [StoredItem], busy: Set<String> = [], retried: [String: Date] = [:],
                          conditions: DeviceConditions = DeviceConditions(), deferral: DeferralPolicy = DeferralPolicy()) -> RetrySchedule {
        RetrySchedule(items: items, now: now, busy: busy, retried: retried, conditions: conditions, deferral: deferral)
    }

    @Test func partialsAndFailuresAreDueAtTheirNextAttemptOldestFirst() {
        let plan = schedule([record("late", .failed, next: -5), record("cut", .partial, next: -50), record("soon", .failed, next: 30),
                             record("later", .partial, next: 90)])
        #expect(plan.due.map(\.key) == ["cut", "late"])
        #expect(plan.nextLook == now.addingTimeInterval(30))
    }

    @Test func whatOnlyAPushChangesIsNeverDue() {
        let plan = schedule([record("gone", .failed, next: -5, final: true), record("refused", .partial, next: -5, final: true),
                             record("big", .tooLarge), record("removed", .removed), record("here", .fetched),
                             record("unscheduled", .failed)])
        #expect(plan.due.isEmpty)
        #expect(plan.nextLook == nil)
    }

    @Test func aURLWithAPasswordTheStoreDoesNotKeepIsNotRetried() {
        let plan = schedule([record("secret", .partial, next: -5, url: "https://alice:***@example.com/a.mp4"),
                             record("broken", .failed, next: -5, url: "not a url")])
        #expect(plan.due.isEmpty)
    }

    @Test func deferredItemsWaitForTheirConditionsToClear() {
        let items = [record("d", .deferred), record("f", .failed, next: -5)]
        let metered = schedule(items, conditions: DeviceConditions(metered: true))
        #expect(metered.due.isEmpty)
        #expect(metered.nextLook == now.addingTimeInterval(RetrySchedule.conditionsCheck))
        let saving = schedule(items, conditions: DeviceConditions(powerSaver: true))
        #expect(saving.due.isEmpty)
        // Options that fetch anyway, or conditions that cleared: due.
        #expect(schedule(items, conditions: DeviceConditions(metered: true), deferral: DeferralPolicy(onMetered: .fetch)).due.map(\.key) == ["d", "f"])
        #expect(schedule(items).due.map(\.key) == ["d", "f"])
        // A failure whose time is far off is looked at then, not at every check.
        let far = schedule([record("f", .failed, next: 3600)], conditions: DeviceConditions(metered: true))
        #expect(far.nextLook == now.addingTimeInterval(3600))
    }

    @Test func anItemTheProcessDiedDeliveringTwiceIsLeftToAPush() {
        var once = record("once", .partial, next: -1)
        once.unendedStarts = 1
        var twice = record("twice", .partial, next: -1)
        twice.unendedStarts = RetrySchedule.crashesTolerated
        let plan = schedule([once, twice])
        #expect(plan.due.map(\.key) == ["once"])
        #expect(plan.nextLook == nil)
    }

    @Test func itemsAPushIsDeliveringAreLeftToIt() {
        let plan = schedule([record("a", .partial, next: -1), record("b", .partial, next: -1)], busy: ["a"])
        #expect(plan.due.map(\.key) == ["b"])
    }

    @Test func anItemARetryTookWaitsUntilTheStoreHearsOfItOrAMinutePasses() {
        let item = record("a", .failed, next: -30, updated: -40)
        // Taken 10 s ago, and nothing recorded since: not again before a minute from then.
        let held = schedule([item], retried: ["a": now.addingTimeInterval(-10)])
        #expect(held.due.isEmpty)
        #expect(held.nextLook == now.addingTimeInterval(50))
        // Recorded since (a resume that progressed): due at once.
        #expect(schedule([item], retried: ["a": now.addingTimeInterval(-50)]).due.map(\.key) == ["a"])
        #expect(schedule([item], retried: ["a": now.addingTimeInterval(-61)]).due.map(\.key) == ["a"])
    }

    @Test func aRetryIsAPayloadPerVoucherWithTheRecordsTitlesAndSubtitles() throws {
        let plan = schedule([record("u", .partial, next: -1, vouched: false), record("v", .failed, next: -2)])
        let retries = plan.retries
        try #require(retries.count == 2)
        #expect(retries[0].vouched)
        #expect(retries[0].payload.items.map(\.key) == ["v"])
        #expect(retries[0].payload.items[0].title == "Title v")
        #expect(retries[0].payload.items[0].subtitle == "sub v")
        #expect(retries[0].payload.items[0].urlString == "https://example.com/v.mp4")
        #expect(!retries[1].vouched)
        #expect(retries[1].payload.items.map(\.key) == ["u"])
    }

    @Test func aLongBacklogGoesInDeliveriesOfAtMostFiveHundred() {
        let items = (0..<1_201).map { record(String(format: "k%04d", $0), .failed, next: -Double(2_000 - $0)) }
        let plan = schedule(items)
        #expect(plan.due.count == RetrySchedule.itemsPerDelivery)
        #expect(plan.due.first?.key == "k0000")
        #expect(plan.nextLook == now)
        #expect(schedule(items, busy: Set(plan.due.map(\.key))).due.first?.key == "k0500")
    }
}
