import CLibNotify
import Foundation
import NIOConcurrencyHelpers
import VODAppBase

/// Posts notifications through libnotify on the D-Bus session bus.
///
/// `notify_notification_show` blocks on a D-Bus round trip that a hung notification server can
/// stretch to 25 seconds, so it runs on a thread of its own and the caller stops waiting at the
/// deadline, or after `longestAnswerWait`. An abandoned thread holds nothing the process needs and
/// ends with it.
///
/// A notification with a `folder` offers "Open folder" as an action when it may (a listener's)
/// and the server supports actions: its thread then stays to hear the answer until the deadline,
/// the notification's closing or the click, whichever comes first; `post` does not wait for that.
/// Otherwise the folder is a link at the end of the body, when the server reads links: the server
/// opens it, and the process that posted it may be gone.
public struct LibNotifyNotifier: Notifier {
    /// Less time left than this, and no action is offered: nobody could read and click it.
    static let shortestActionWait: Duration = .seconds(2)
    /// The longest the run waits for the server to take a notification: a server answers in
    /// milliseconds, and one that has not in this long is hung; waiting for it to the end of the
    /// budget held a listener's delivery slot for all of it.
    static let longestAnswerWait: Duration = .seconds(3)

    public init() {}

    public func post(_ notification: DesktopNotification, deadline: ContinuousClock.Instant) async -> NotificationReport {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .milliseconds(10) else {
            return .notShown("no time left in the budget for a notification")
        }
        if Self.unanswered.withLockedValue({ $0 }) > 0 {
            return .notShown("the notification server has not answered an earlier notification")
        }
        return await withCheckedContinuation { continuation in
            let answer = FirstAnswer(continuation)
            // A thread of its own, not a pool's: it may wait in GLib's main loop for a click
            // until the budget ends.
            let thread = Thread {
                Self.show(notification, deadline: deadline, answer: answer)
            }
            thread.name = "vodapp-notify"
            thread.start()
            let patience = min(remaining, Self.longestAnswerWait)
            DispatchQueue.global().asyncAfter(deadline: .now() + patience.inSeconds) {
                // Counted before the answer is given: the caller's next notification follows the
                // answer at once, and must find the server counted as hung.
                Self.unanswered.withLockedValue { $0 += 1 }
                if !answer.give(.notShown(String(format: "the notification server did not answer within %.1f s", patience.inSeconds))) {
                    Self.unanswered.withLockedValue { $0 -= 1 }
                }
            }
        }
    }

    /// Notifications the server has not answered in `longestAnswerWait`, and still has not: while
    /// there is one, the server is taken to be hung, and the next notification (a push's alert's
    /// replacement, the next delivery's) is not shown rather than waited for again. The server is
    /// the session's, so this is the process's.
    private static let unanswered = NIOLockedValueBox(0)

    private static func show(_ notification: DesktopNotification, deadline: ContinuousClock.Instant,
                             answer: FirstAnswer<NotificationReport>) {
        // An answer after the caller stopped waiting: the server was counted as not answering,
        // and now it has.
        func give(_ report: NotificationReport) {
            if !answer.give(report) { unanswered.withLockedValue { $0 -= 1 } }
        }
        if let failure = String(failureOf: { vod_notify_start(DesktopNotification.appName, $0, $1) }) {
            return give(.notShown(failure))
        }
        let offersAction = notification.folder != nil && notification.folderAction
            && ContinuousClock.now.duration(to: deadline) > shortestActionWait && vod_server_has_capability("actions") != 0 && canOpenFolders
        var body = notification.body
        if let folder = notification.folder, !offersAction, vod_server_has_capability("body-hyperlinks") != 0 {
            body += "\n" + DesktopNotification.folderLink(folder)
        }
        guard let handle = vod_notification_new(notification.summary, body, DesktopNotification.icon, notification.category,
                                                DesktopNotification.appName, notification.isUrgent ? 1 : 0) else {
            return give(.notShown("libnotify could not create a notification"))
        }
        defer { vod_notification_unref(handle) }
        if let replaced = notification.replacing { vod_notification_set_id(handle, replaced) }

        var action: OpaquePointer?
        if let folder = notification.folder, offersAction {
            action = vod_folder_action_add(handle, folder, DesktopNotification.openFolderLabel)
        }

        var error = [CChar](repeating: 0, count: 512)
        guard vod_notification_show(handle, &error, error.count) != 0 else {
            if let action { vod_folder_action_discard(handle, action) }
            return give(.notShown("no notification server: \(String(writtenInto: error))"))
        }
        let shown = NotificationReport.shown(id: vod_notification_id(handle))
        guard let action else { return give(shown) }
        give(shown)
        // Until the deadline, less a moment for the process to end within its budget.
        let wait = ContinuousClock.now.duration(to: deadline) - .milliseconds(100)
        _ = vod_folder_action_wait(handle, action, UInt32(clamping: max(0, wait.milliseconds)))
    }

    /// Whether `xdg-open` is on PATH: without it the action could only fail.
    static let canOpenFolders: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/xdg-open", X_OK) == 0 }
    }()
}
