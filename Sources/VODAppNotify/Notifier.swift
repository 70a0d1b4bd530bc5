/// Shows a desktop notification, giving up at a deadline.
public protocol Notifier: Sendable {
    /// - Returns: `.shown`, or why it was not; never throws, since a missing notification server
    ///   must not change how a delivery ends.
    func post(_ notification: DesktopNotification, deadline: ContinuousClock.Instant) async -> NotificationReport
}
