import Foundation
import VODAppBase
import VODAppReport

/// Items another delivery holds the locks of: this one waits for them, within its own budget.
extension Delivery {
    /// How the items that other deliveries were fetching ended, seen from this one: each is
    /// waited for, within this delivery's own deadline, until its lock comes free.
    func outcomes(ofOthersFetching plan: DeliveryPlan, since startedAt: Date, until deadline: ContinuousClock.Instant,
                  stop: StopRequest?) async -> [ItemReport] {
        let (directory, ledger, locks) = (plan.directory, plan.ledger, plan.locks)
        return await withTaskGroup(of: ItemReport.self) { group in
            for target in plan.othersFetching {
                group.addTask {
                    let key = target.item.key
                    guard let locks, await locks.wait(for: key, until: deadline, stop: stop) else {
                        let why = stop?.reason ?? "the budget ran out"
                        return target.report(.timedOut, error: "another vodapp delivery was still fetching it when \(why)")
                    }
                    defer { locks.release(key) }
                    if let found = directory.index().file(for: target.item.key, urlExtension: target.url.fileExtension),
                       let known = present(target, at: found, in: directory) {
                        return known
                    }
                    guard let record = ledger?.items([key], until: deadline)[key], record.updatedAt >= startedAt else {
                        return target.report(.failed, error: "another vodapp delivery was fetching it and stopped without a word; the next delivery tries again")
                    }
                    let theirs = "fetched at the same time by another vodapp delivery: \(record.error ?? record.state.rawValue)"
                    switch record.state {
                    case .tooLarge: return target.report(.tooLarge, error: theirs)
                    case .partial: return target.report(.timedOut, error: theirs)
                    case .failed: return target.report(.failed, error: theirs)
                    case .fetched: return target.report(.failed, error: "another vodapp delivery fetched it, but \(record.path ?? "its file") is gone")
                    case .removed: return target.report(.removed, error: theirs)
                    case .deferred: return target.report(.deferred, error: theirs)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }
}
