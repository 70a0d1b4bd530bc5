import CGio
import Logging

/// GLib's log lines (libnotify's "Failed to connect to proxy", GIO's debug lines) through
/// swift-log, instead of GLib's own `libnotify-WARNING **` lines on stderr.
///
/// A library's warning is demoted to info: what it is about, vodapp says itself in words a user
/// can act on ("notification not shown: no notification server"), and `-v` shows the library's
/// own. GLib's criticals and errors are bugs, and stay errors.
enum GLibLog {
    /// Made after swift-log's bootstrap: the first use is `route()`.
    static let logger = Logger(label: "vodapp")

    static func route() {
        _ = logger
        vod_route_glib_logs { level, domain, message in
            let text = message.map { String(cString: $0) } ?? ""
            GLibLog.logger.log(level: GLibLog.level(level), "\(text)", source: domain.map { String(cString: $0) } ?? "GLib")
        }
    }

    static func level(_ glib: Int32) -> Logger.Level {
        switch glib {
        case G_LOG_LEVEL_ERROR.rawValue: .critical
        case G_LOG_LEVEL_CRITICAL.rawValue: .error
        case G_LOG_LEVEL_WARNING.rawValue, G_LOG_LEVEL_MESSAGE.rawValue: .info
        default: .debug
        }
    }
}
