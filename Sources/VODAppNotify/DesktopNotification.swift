import Foundation
import VODAppBase

/// What the desktop notification says.
public struct DesktopNotification: Sendable, Equatable {
    /// A delivery's end: the freedesktop category for a completed transfer.
    public static let category = "transfer.complete"
    /// A push's alert, shown before its transfers: the category for transfers in general.
    public static let alertCategory = "transfer"
    public static let appName = "VODApp"
    public static let icon = "video-x-generic"
    /// How many titles the body names before "and N more".
    public static let titlesNamed = 3

    public let summary: String
    public let body: String
    /// Low when nothing went wrong, normal when an item was skipped or failed.
    public let isUrgent: Bool
    public var category = Self.category
    /// The id of a notification this one takes the place of (a push's alert, which the delivery's
    /// end replaces), so that the user sees one that changes, not two.
    public var replacing: UInt32?
    /// A folder the notification offers to open: as an action ("Open folder", with xdg-open) when
    /// `folderAction` is set, the server supports actions and there is time to wait for the
    /// answer; otherwise as a link in the body when the server reads links (`body-hyperlinks`),
    /// which the server opens itself.
    public var folder: String?
    /// Whether the folder may be offered as an action, which only a process that stays to hear
    /// the click can honour: a listener. A one-shot run ends when its work is done, so it offers
    /// the link, which needs nothing of it.
    public var folderAction = false
    /// The label of that action.
    public static let openFolderLabel = "Open folder"

    public init(summary: String, body: String, isUrgent: Bool) {
        self.summary = summary
        self.body = body
        self.isUrgent = isUrgent
    }

    /// The body's link to `folder`: a `file://` URL, percent-encoded and escaped for the markup
    /// (percent-encoding leaves `&` alone, and takes `"`, `<` and `>`).
    package static func folderLink(_ folder: String) -> String {
        let encoded = folder.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? folder
        return "<a href=\"file://\(encoded.replacingOccurrences(of: "&", with: "&amp;"))\">\(openFolderLabel)</a>"
    }

    /// Text from the network for a notification's body: control characters are replaced, and
    /// notification servers read `<`, `>` and `&` in a body as markup, so they are escaped.
    package static func displayable(_ title: String, limit: Int = 120) -> String {
        plain(title, limit: limit)
            .replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Text from the network for a notification's summary, which the specification makes plain
    /// text (no server reads markup there, so `&amp;` would show as such): only control
    /// characters are replaced.
    package static func plain(_ text: String, limit: Int = 120) -> String {
        UntrustedText.sanitized(text, limit: limit, replacingControlsWith: " ")
    }
}
