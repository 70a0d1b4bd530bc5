import Foundation
import VODAppBase

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

    /// Titles come from the network: control characters are replaced, and notification servers
    /// read `<`, `>` and `&` as markup, so they are escaped.
    package static func displayable(_ title: String) -> String {
        UntrustedText.sanitized(title, limit: 120, replacingControlsWith: " ")
            .replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
