/// Whether the desktop notification was shown, and if not, why.
public struct NotificationReport: Sendable, Equatable, Encodable {
    public let shown: Bool
    public let reason: String?

    public static let shown = NotificationReport(shown: true, reason: nil)

    public static func notShown(_ reason: String) -> NotificationReport {
        NotificationReport(shown: false, reason: reason)
    }
}
