import Foundation

/// A real notification server on a private D-Bus session bus: `dbus-daemon` plus
/// python-dbusmock's `notification_daemon` template, which logs every `Notify` call with its
/// exact arguments. This is how libnotify tests itself.
public final class NotificationServer: @unchecked Sendable {
    // @unchecked: the Process objects are set once in init and only signalled afterwards.
    public let busAddress: String
    private let bus: Process
    private let daemon: Process
    private let logPath: String
    private let scratch: ScratchDirectory

    public enum StartError: Error, CustomStringConvertible {
        case noBusAddress
        case serverNotOnBus

        public var description: String {
            switch self {
            case .noBusAddress: "dbus-daemon printed no address"
            case .serverNotOnBus: "python-dbusmock's notification_daemon did not appear on the bus"
            }
        }
    }

    /// - Parameter capabilities: what the server says it can do (`GetCapabilities`); nil for
    ///   the template's default, which has no "actions".
    public init(capabilities: [String]? = nil) throws {
        scratch = try ScratchDirectory("vodapp-bus")
        logPath = scratch.child("notifications.log")

        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
        let addressPipe = Pipe()
        bus.standardOutput = addressPipe
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        let line = Self.readLine(addressPipe.fileHandleForReading)
        guard !line.isEmpty else {
            kill(bus.processIdentifier, SIGKILL)
            throw StartError.noBusAddress
        }
        busAddress = line

        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        daemon.arguments = ["-m", "dbusmock", "--session", "-t", "notification_daemon", "-l", logPath]
            + (capabilities.map { ["-p", #"{"capabilities": "\#($0.joined(separator: " "))"}"#] } ?? [])
        daemon.environment = environment
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()

        let wait = Process()
        wait.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        wait.arguments = ["wait", "--session", "--timeout", "20", "org.freedesktop.Notifications"]
        wait.environment = environment
        try wait.run()
        wait.waitUntilExit()
        guard wait.terminationStatus == 0 else {
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
    public func invokeAction(_ action: String, onNotification id: Int = 1) throws {
        let emit = Process()
        emit.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        emit.arguments = ["call", "--session", "--dest", "org.freedesktop.Notifications",
                          "--object-path", "/org/freedesktop/Notifications",
                          "--method", "org.freedesktop.DBus.Mock.EmitSignal",
                          "org.freedesktop.Notifications", "ActionInvoked", "us", "[<uint32 \(id)>, <'\(action)'>]"]
        emit.environment = ["DBUS_SESSION_BUS_ADDRESS": busAddress]
        emit.standardOutput = FileHandle.nullDevice
        try emit.run()
        emit.waitUntilExit()
    }

    /// Freezes the server: the bus still takes calls for it, and nobody answers them.
    public func freeze() {
        kill(daemon.processIdentifier, SIGSTOP)
    }

    /// SIGKILL, not SIGTERM: once a test in this process has run a listener, SIGTERM is ignored
    /// here, and children inherit ignored signals, so a SIGTERM would leave both running.
    public func stop() {
        if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }
        if bus.isRunning { kill(bus.processIdentifier, SIGKILL) }
    }

    private static func readLine(_ handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while let byte = try? handle.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            bytes.append(first)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
