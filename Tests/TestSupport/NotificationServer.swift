import UnitTestSupport
import Foundation

/// A real notification server on a private D-Bus session bus: `dbus-daemon` plus
/// python-dbusmock's `notification_daemon` template, which logs every `Notify` call with its
/// exact arguments. This is how libnotify tests itself.
public final class NotificationServer: Sendable {
    public let busAddress: String
    private let bus: RunningProcess
    private let daemon: RunningProcess
    private let logPath: String
    private let scratch: ScratchDirectory

    public enum StartError: Error, CustomStringConvertible {
        case serverNotOnBus

        public var description: String {
            switch self {
            case .serverNotOnBus: "python-dbusmock's notification_daemon did not appear on the bus"
            }
        }
    }

    /// - Parameter capabilities: what the server says it can do (`GetCapabilities`); nil for
    ///   the template's default, which has no "actions".
    public init(capabilities: [String]? = nil) async throws {
        scratch = try ScratchDirectory("vodapp-bus")
        logPath = scratch.child("notifications.log")

        (bus, busAddress) = try await PrivateBusDaemon.start()

        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        let arguments = ["-m", "dbusmock", "--session", "-t", "notification_daemon", "-l", logPath]
            + (capabilities.map { ["-p", #"{"capabilities": "\#($0.joined(separator: " "))"}"#] } ?? [])
        // A python start-up: not while a timing-sensitive suite runs.
        let (daemon, wait) = try await HeavyWork.exclusively { [environment] in
            let daemon = try await RunningProcess("/usr/bin/python3", arguments, environment: environment)
            let wait = try await runTool("/usr/bin/gdbus", ["wait", "--session", "--timeout", "20", "org.freedesktop.Notifications"],
                                         environment: environment)
            return (daemon, wait)
        }
        self.daemon = daemon
        guard wait.exited, wait.exitCode == 0 else {
            stop()
            throw StartError.serverNotOnBus
        }
    }

    deinit {
        stop()
    }

    /// The `Notify` calls received so far, one log line each:
    /// `Notify "app" 0 "icon" "summary" "body" [actions] {hints} timeout`.
    public var notifyCalls: [String] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        // Each call starts with a timestamp; a body with newlines continues on the next lines.
        var entries: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let stamp = line.prefix { $0.isNumber || $0 == "." }
            if !stamp.isEmpty, stamp.contains("."), line.dropFirst(stamp.count).hasPrefix(" ") {
                entries.append(String(line))
            } else if !entries.isEmpty {
                entries[entries.count - 1] += "\n" + line
            }
        }
        return entries.filter { $0.contains(" Notify ") }
    }

    /// Emits `ActionInvoked(id, action)`, as a server does when the user clicks an action.
    public func invokeAction(_ action: String, onNotification id: Int = 1) async throws {
        _ = try await runTool("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.Notifications",
                                                 "--object-path", "/org/freedesktop/Notifications",
                                                 "--method", "org.freedesktop.DBus.Mock.EmitSignal",
                                                 "org.freedesktop.Notifications", "ActionInvoked", "us", "[<uint32 \(id)>, <'\(action)'>]"],
                              environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress])
    }

    /// Freezes the server: the bus still takes calls for it, and nobody answers them.
    public func freeze() {
        daemon.signal(SIGSTOP)
    }

    /// Ends both with SIGTERM, which they get at its default (swift-subprocess resets every
    /// signal in the child), however this process treats it. SIGCONT, since a frozen server
    /// would act on SIGTERM only once thawed.
    public func stop() {
        daemon.signal(SIGTERM)
        daemon.signal(SIGCONT)
        bus.signal(SIGTERM)
    }
}
