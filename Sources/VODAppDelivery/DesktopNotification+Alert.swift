import VODAppBase
import VODAppNotify
import VODAppPayload
import VODAppReport

extension DesktopNotification {
    /// A push's alert, as the phone showed it: the title in bold, or the text alone when the alert
    /// is a string; the subtitle above the body.
    public init(alert: PushAlert) {
        let summary = alert.title ?? alert.body ?? ""
        let lines = alert.title == nil ? [alert.subtitle] : [alert.subtitle, alert.body]
        self.init(summary: Self.plain(summary),
                  body: lines.compactMap { $0 }.map { Self.displayable($0, limit: Self.alertBodyLimit) }.joined(separator: "\n"),
                  isUrgent: false)
        category = Self.alertCategory
    }

    /// The most characters of an alert's subtitle or body shown: APNs bounds a payload, not its
    /// texts, and a notification is read at a glance.
    static let alertBodyLimit = 400

    /// What takes the place of a shown alert when nothing arrived: the alert promised videos, and
    /// left alone it would go on promising them. Nil when nothing went wrong either (every item
    /// was already in DIR), where the alert may stand.
    public init?(replacingAlertAfter items: [ItemReport]) {
        let tooLarge = items.count { $0.status == .tooLarge }
        let failed = items.count { $0.status == .failed || $0.status == .timedOut }
        guard tooLarge + failed > 0 else { return nil }
        var problems: [String] = []
        if failed > 0 { problems.append("\(failed) failed") }
        if tooLarge > 0 { problems.append("\(tooLarge) skipped as too large") }
        self.init(summary: "No new video could be fetched", body: problems.joined(separator: ", "), isUrgent: true)
    }

    /// New items a delivery deferred, said once: the next push naming them is not news.
    init?(deferring news: [ItemReport], until awaited: String) {
        guard !news.isEmpty else { return nil }
        let summary = news.count == 1 ? "1 new video waits for \(awaited)" : "\(news.count) new videos wait for \(awaited)"
        self.init(summary: summary, body: Self.naming(news), isUrgent: false)
        category = Self.alertCategory
    }
}
