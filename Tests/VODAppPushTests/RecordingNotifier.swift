import NIOConcurrencyHelpers
import VODAppNotify

/// A notifier that keeps what it is asked to show and says it was shown: what the desktop would
/// have displayed, without a session bus (NotificationTests drives the real libnotify).
final class RecordingNotifier: Notifier {
    private let posted = NIOLockedValueBox<[DesktopNotification]>([])

    func post(_ notification: DesktopNotification, deadline: ContinuousClock.Instant) async -> NotificationReport {
        posted.withLockedValue { $0.append(notification) }
        return .shown
    }

    var notifications: [DesktopNotification] { posted.withLockedValue { $0 } }
}
