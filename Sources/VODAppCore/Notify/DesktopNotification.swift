import Foundation

/// What the desktop notification says.
public struct DesktopNotification: Sendable, Equatable {
    public static let category = "transfer.complete"
    public static let appName = "VODApp"
    public static let icon = "video-x-generic"
    /// How many titles the body names before "and N more".
    public static let titlesNamed = 3

    public let summary: String
    public let body: String
    /// Low when nothing went wrong, normal when an item was skipped or failed.
    public let isUrgent: Bool
    /// A folder the notification offers to open ("Open folder", with xdg-open), when the server
    /// supports actions and there is time to wait for the answer.
    public var folder: String?
    /// The label of that action.
    public static let openFolderLabel = "Open folder"

    public init(summary: String, body: String, isUrgent: Bool) {
        self.summary = summary
        self.body = body
        self.isUrgent = isUrgent
    }

    /// The announcement of a delivery, or nil when nothing new arrived.
    public init?(announcing items: [ItemReport]) {
        let new = items.filter { $0.status == .downloaded }
        guard !new.isEmpty else { return nil }
        let tooLarge = items.count { $0.status == .tooLarge }
        let failed = items.count { $0.status == .failed || $0.status == .timedOut }

        summary = new.count == 1 ? "1 new video to watch offline" : "\(new.count) new videos to watch offline"
        let titles = new.prefix(Self.titlesNamed).map { Self.displayable($0.title ?? $0.key) }
        var named = titles.joined(separator: ", ")
        if new.count > titles.count {
            named += " and \(new.count - titles.count) more"
        }
        var lines = [named]
        var problems: [String] = []
        if tooLarge > 0 { problems.append("\(tooLarge) skipped as too large") }
        if failed > 0 { problems.append("\(failed) failed") }
        if !problems.isEmpty { lines.append(problems.joined(separator: ", ")) }
        body = lines.joined(separator: "\n")
        isUrgent = !problems.isEmpty
    }

    /// Titles come from the network: control characters are replaced, and notification servers
    /// read `<`, `>` and `&` as markup, so they are escaped.
    static func displayable(_ title: String) -> String {
        UntrustedText.sanitized(title, limit: 120, replacingControlsWith: " ")
            .replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
