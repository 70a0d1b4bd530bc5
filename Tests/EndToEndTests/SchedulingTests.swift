import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// Budget-aware scheduling: behind one slow shared link, the items that can still finish get the
/// bandwidth. The sample server's link rate makes the bottleneck deterministic.
@Suite(.serialized, .timingSensitive) struct SchedulingTests {
    let runner = VODAppRunner()
    static let sizes: [Int64] = [1, 8, 2, 1, 8, 3, 2].map { $0 << 20 }

    private func run(_ extra: [String], server: SampleServer, in scratch: ScratchDirectory) async throws -> VODAppRunner.Run {
        let payload = PayloadBuilder.json(Self.sizes.enumerated().map { index, size in
            (key: "item\(index)", title: "Item \(index)", url: server.url("/bytes/\(size).mp4?n=\(index)"))
        })
        return try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify", "--budget", "8"] + extra, stdin: payload)
    }

    /// What finishes depends on how much of the link the sample server, a part of this test
    /// process, gets while the suite runs beside it (a loaded run carried a quarter of the quiet
    /// one's bytes), so the assertions are about order, not count: whatever finished is the
    /// smallest items, and the 8 MiB ones, which cannot fit in the budget on this link however
    /// fast the machine is, were set aside rather than left to take a share of it.
    @Test(.disabled(if: TimeBound.sanitizer != nil, "a sanitizer's slowdown eats the budget this test measures"))
    func behindASlowLinkTheSmallestItemsFinishFirst() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer(linkRate: 2 << 20) { server in
            let run = try await run([], server: server, in: scratch)
            let summary = run.items.map { "\($0["key"] ?? ""): \($0["status"] ?? "") \($0["error"] ?? "")" }
            let sizeOf = { (item: [String: Any]) in Self.sizes[Int((item["key"] as? String ?? "").dropFirst(4)) ?? 0] }
            let downloaded = run.items.filter { $0["status"] as? String == "downloaded" }
            let unfinished = run.items.filter { $0["status"] as? String != "downloaded" }
            // Smallest first: nothing that finished is larger than anything that did not.
            let largestFinished = downloaded.map(sizeOf).max() ?? 0
            let smallestUnfinished = unfinished.map(sizeOf).min() ?? .max
            #expect(largestFinished <= smallestUnfinished, "\(summary)")
            for item in downloaded {
                let key = item["key"] as? String ?? ""
                #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, key), count: sizeOf(item)))
            }
            // 25 MiB in all on a 2 MiB/s link for 8 s: neither 8 MiB item finishes, and the
            // planner sets at least one aside. (It lets the other run on, from a rate the
            // start-up burst inflates: issue 30's scheduler.) What they got is kept.
            let eights = try ["item1", "item4"].map { try #require(run.item($0)) }
            #expect(eights.allSatisfy { $0["status"] as? String == "timedOut" }, "\(summary)")
            #expect(eights.contains { ($0["error"] as? String ?? "").hasPrefix("set aside so that smaller items could finish") }, "\(summary)")
            #expect(run.exitCode == 75)
            #expect(!ScratchDirectory.allEntries(scratch.path + "/.vodapp/partial").isEmpty)
        }
    }

    /// The case issue 14 found: a 400 kB/s link, items of 1.5, 2, 3 and 8 MiB. The count must be
    /// the optimum: the most items whose sizes sum to what the link carries before the transfers
    /// are cut (the budget less its reserve). Exact, not optimum − 1: the margins are wide (at
    /// 10 s one item fits with 2 MB to spare and the second is 70 kB out of reach; at 15 s two fit
    /// with 1.9 MB, almost 5 s of the link, to spare, and the third is 1.2 MB out of reach), so a
    /// loaded machine's slow start cannot change the count.
    @Test(.disabled(if: TimeBound.sanitizer != nil, "a sanitizer's slowdown eats the budget this test measures"),
          arguments: [10, 15])
    func onA400kBLinkTheMostItemsThatFitFinish(budget: Int) async throws {
        let scratch = try ScratchDirectory()
        let rate = 400_000
        let sizes: [Int64] = [3 << 19, 2 << 20, 3 << 20, 8 << 20]
        let transferSeconds = Double(budget) - min(1, Double(budget) / 10)
        var sum: Int64 = 0
        let optimum = sizes.sorted().prefix { sum += $0; return Double(sum) <= Double(rate) * transferSeconds }.count
        try await withSampleServer(linkRate: rate) { server in
            let payload = PayloadBuilder.json(sizes.enumerated().map { index, size in
                (key: "item\(index)", title: "Item \(index)", url: server.url("/bytes/\(size).mp4?n=\(index)"))
            })
            let start = try await runner.startUpSeconds()
            let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify", "--budget", "\(budget)"], stdin: payload)
            let downloaded = run.items.filter { $0["status"] as? String == "downloaded" }
            #expect(downloaded.count == optimum, "\(run.items.map { "\($0["key"] ?? ""): \($0["status"] ?? "") \($0["error"] ?? "")" })")
            // The smallest ones, whole.
            for (index, size) in sizes.enumerated().sorted(by: { $0.element < $1.element }).prefix(optimum) {
                #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "item\(index)"), count: size))
            }
            // What was set aside says so, and what it keeps.
            let eight = try #require(run.item("item3"))
            let error = eight["error"] as? String ?? ""
            #expect(eight["status"] as? String == "timedOut")
            #expect(error.hasPrefix("set aside so that smaller items could finish before the budget ran out; "), "\(error)")
            #expect(error.contains(" of 8.0 MiB kept to resume"), "a late start adds how late it began: \(error)")
            #expect(run.exitCode == 75)
            // The budget counts from main: a start-up the full suite stretched (11.9 s for 10 in
            // one run) is allowed for, measured just before (`startUpSeconds`).
            #expect(run.wallSeconds < TimeBound.seconds(Double(budget) + 0.5) + start,
                    "took \(run.wallSeconds) s, \(run.report?["elapsedSeconds"] ?? "no report") s by its own count, \(start) s to start")
        }
    }
}
