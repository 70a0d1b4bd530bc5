/// Whether the desktop notification was shown, and if not, why.
public struct NotificationReport: Sendable, Equatable, Encodable {
    public let shown: Bool
    public let reason: String?
    /// The server's id for the notification shown, which a later one can replace
    /// (`DesktopNotification.replacing`); not in the report, where it would mean nothing.
    public let id: UInt32?

    public static let shown = NotificationReport(shown: true, reason: nil, id: nil)

    public static func shown(id: UInt32) -> NotificationReport {
        NotificationReport(shown: true, reason: nil, id: id)
    }

    public static func notShown(_ reason: String) -> NotificationReport {
        NotificationReport(shown: false, reason: reason, id: nil)
    }

    private enum CodingKeys: String, CodingKey {
        case shown, reason
    }
}
