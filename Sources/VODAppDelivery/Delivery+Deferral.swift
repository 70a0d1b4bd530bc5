import Foundation
import VODAppBase
import VODAppDevice
import VODAppReport
import VODAppStore

extension Delivery {
    /// The plan, with its items deferred when the device asks for that (`DeferralPolicy`): each is
    /// settled `deferred`, its lock released, and no request made. Items vodapp has never tried
    /// are recorded as deferred, so that the next push naming them knows the deferral is not news.
    func deferring(_ plan: DeliveryPlan, budget: Budget) async -> DeliveryPlan {
        guard !plan.mine.isEmpty, options.deferral.defersAnything else { return plan }
        guard let reason = options.deferral.reason(under: await device.current()) else { return plan }
        var deferred = plan
        var news: [ItemReport] = []
        var records: [StoredItem] = []
        for target in plan.mine {
            let report = target.report(.deferred, error: reason.explanation)
            deferred.settled[target.item.key] = report
            plan.locks?.release(target.item.key)
            if plan.known[target.item.key] == nil {
                news.append(report)
                var record = StoredItem(key: target.item.key, title: target.item.title, url: target.item.urlString ?? "",
                                        state: .deferred, error: reason.explanation, attempts: 0, vouched: options.vouched, updatedAt: Date())
                record.subtitle = target.item.subtitle
                records.append(record)
            }
        }
        plan.ledger?.record(records, until: Self.storeDeadline(budget))
        deferred.mine = []
        deferred.deferral = (reason, news)
        return deferred
    }
}
