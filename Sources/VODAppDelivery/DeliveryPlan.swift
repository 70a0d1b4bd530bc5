import VODAppDeliveryPolicy
import VODAppMediaDirectory
import VODAppReport
import VODAppStore
import VODAppTransferPolicy

/// What one delivery does with each item of its payload, decided before any transfer starts.
struct DeliveryPlan: Sendable {
    let directory: MediaDirectory
    /// Items with a report already: invalid, or already in DIR.
    var settled: [String: ItemReport]
    /// Items this delivery fetches: it holds their locks.
    var mine: [DeliveryTarget]
    /// Items another delivery holds the locks of: waited for, not fetched.
    let othersFetching: [DeliveryTarget]
    /// What the store knew of the missing items before this delivery began.
    let known: [String: StoredItem]
    /// Nil when the store cannot be used (a warning, never a failure) or DIR has no work area.
    let ledger: DeliveryLedger?
    /// Nil only when there is nothing to fetch and DIR has no work area.
    let locks: ItemLocks?
    /// What this delivery may write to DIR's file system before it has less than `--min-free`
    /// free; nil without the limit.
    let room: TransferRequest.Room?
    /// Why this delivery deferred its items, and those of them that are news (never tried before);
    /// nil when it fetches.
    var deferral: Deferral?
    typealias Deferral = (reason: DeferralPolicy.Reason, news: [ItemReport])
}
