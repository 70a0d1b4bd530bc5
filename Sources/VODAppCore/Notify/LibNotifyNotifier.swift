import CLibNotify
import Foundation
import NIOConcurrencyHelpers

/// Posts notifications through libnotify on the D-Bus session bus.
///
/// `notify_notification_show` blocks on a D-Bus round trip that a hung notification server can
/// stretch to 25 seconds, so it runs on a thread of its own and the caller stops waiting at the
/// deadline. An abandoned thread holds nothing the process needs and ends with it.
public struct LibNotifyNotifier: Notifier {
    public init() {}

    public func post(_ notification: DesktopNotification, deadline: ContinuousClock.Instant) async -> NotificationReport {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .milliseconds(10) else {
            return .notShown("no time left in the budget for a notification")
        }
        return await withCheckedContinuation { continuation in
            let answer = FirstAnswer(continuation)
            let thread = Thread {
                answer.give(Self.show(notification))
            }
            thread.name = "vodapp-notify"
            thread.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + remaining.inSeconds) {
                answer.give(.notShown(String(format: "the notification server did not answer within %.1f s", remaining.inSeconds)))
            }
        }
    }

    private static func show(_ notification: DesktopNotification) -> NotificationReport {
        guard notify_is_initted() != 0 || notify_init(DesktopNotification.appName) != 0 else {
            return .notShown("libnotify could not be initialised")
        }
        guard let handle = notify_notification_new(notification.summary, notification.body, DesktopNotification.icon) else {
            return .notShown("libnotify could not create a notification")
        }
        defer { vod_notification_unref(handle) }
        notify_notification_set_category(handle, DesktopNotification.category)
        notify_notification_set_app_name(handle, DesktopNotification.appName)
        notify_notification_set_urgency(handle, notification.isUrgent ? NOTIFY_URGENCY_NORMAL : NOTIFY_URGENCY_LOW)

        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(handle, &error) != 0 {
            return .shown
        }
        let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
        if let error { g_error_free(error) }
        return .notShown("no notification server: \(message)")
    }
}

/// Resumes a continuation with whichever answer comes first: the notification thread's or the
/// deadline's.
private final class FirstAnswer: Sendable {
    private let continuation: NIOLockedValueBox<CheckedContinuation<NotificationReport, Never>?>

    init(_ continuation: CheckedContinuation<NotificationReport, Never>) {
        self.continuation = NIOLockedValueBox(continuation)
    }

    func give(_ report: NotificationReport) {
        let waiting = continuation.withLockedValue { value -> CheckedContinuation<NotificationReport, Never>? in
            defer { value = nil }
            return value
        }
        waiting?.resume(returning: report)
    }
}
