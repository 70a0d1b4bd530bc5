import VODAppBase
import VODAppNotify
import VODAppPayload

extension Delivery {
    /// How long the transfers wait for the alert to be on screen: a notification server answers
    /// in milliseconds, and a hung one must not cost the budget more than this.
    static let alertHeadStart: Duration = .milliseconds(250)

    /// Shows the push's alert (`aps.alert`) before any transfer, as the phone did, when this
    /// delivery fetches an item vodapp has never tried: a repeated push, or a poll that finds the
    /// same payload, retries what failed but does not show the alert again. Returns the alert's
    /// report, to come; nil when the push has no alert.
    func showAlert(of payload: Payload, plan: DeliveryPlan, budget: Budget) async -> Task<NotificationReport, Never>? {
        if let why = payload.ignoredAlert {
            attention.warn("alert not shown: \(why)")
            return Task { .notShown(why) }
        }
        guard let alert = payload.alert else { return nil }
        guard options.notify else { return Task { .notShown("disabled with --no-notify") } }
        guard plan.mine.contains(where: { plan.known[$0.item.key] == nil }) else {
            return Task { .notShown("nothing new: every item is in DIR, was tried before, or is being fetched by another delivery") }
        }
        let notifier = notifier
        let shown = Task { await notifier.post(DesktopNotification(alert: alert), deadline: budget.end) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let first = FirstAnswer(continuation)
            Task {
                _ = await shown.value
                first.give(())
            }
            Task {
                try? await Task.sleep(for: Self.alertHeadStart)
                first.give(())
            }
        }
        return shown
    }
}
