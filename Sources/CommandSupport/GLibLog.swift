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

    /// Before anything loads GLib: its loader sets this writer when it loads.
    static func route() {
        _ = logger
        vod_route_glib_logs { level, domain, message in
            let text = message.map { String(cString: $0) } ?? ""
            GLibLog.logger.log(level: GLibLog.level(level), "\(text)", source: domain.map { String(cString: $0) } ?? "GLib")
        }
    }

    static func level(_ glib: VodGLibLogLevel) -> Logger.Level {
        switch glib {
        case VOD_GLIB_LOG_ERROR: .critical
        case VOD_GLIB_LOG_CRITICAL: .error
        case VOD_GLIB_LOG_WARNING, VOD_GLIB_LOG_MESSAGE: .info
        default: .debug
        }
    }
}
