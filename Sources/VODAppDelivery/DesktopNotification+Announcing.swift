import VODAppNotify
import VODAppReport

extension DesktopNotification {
    /// The announcement of a delivery, or nil when nothing new arrived.
    public init?(announcing items: [ItemReport]) {
        let new = items.filter { $0.status == .downloaded }
        guard !new.isEmpty else { return nil }
        let tooLarge = items.count { $0.status == .tooLarge }
        let failed = items.count { $0.status == .failed || $0.status == .timedOut }

        let summary = new.count == 1 ? "1 new video to watch offline" : "\(new.count) new videos to watch offline"
        var lines = [Self.naming(new)]
        var problems: [String] = []
        if tooLarge > 0 { problems.append("\(tooLarge) skipped as too large") }
        if failed > 0 { problems.append("\(failed) failed") }
        if !problems.isEmpty { lines.append(problems.joined(separator: ", ")) }
        let body = lines.joined(separator: "\n")
        self.init(summary: summary, body: body, isUrgent: !problems.isEmpty)
    }

    /// The first `titlesNamed` titles, in the payload's order, "and N more" for the rest.
    static func naming(_ items: [ItemReport]) -> String {
        let titles = items.prefix(titlesNamed).map { displayable($0.title ?? $0.key) }
        var named = titles.joined(separator: ", ")
        if items.count > titles.count {
            named += " and \(items.count - titles.count) more"
        }
        return named
    }
}
