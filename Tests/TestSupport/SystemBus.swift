import UnitTestSupport
import Foundation
import NIOConcurrencyHelpers

/// A private D-Bus bus that plays the system bus for one test: `dbus-daemon` plus
/// python-dbusmock's templates for the services vodapp asks about there, NetworkManager and
/// power-profiles-daemon. vodapp reaches it through `DBUS_SYSTEM_BUS_ADDRESS`
/// (`VODAppRunner.environment(systemBus:)`), which GLib honours.
public final class SystemBus: Sendable {
    public let address: String
    private let bus: RunningProcess
    private let services: NIOLockedValueBox<[RunningProcess]>

    public enum StartError: Error, CustomStringConvertible {
        case serviceNotOnBus(String)

        public var description: String {
            switch self {
            case .serviceNotOnBus(let name): "python-dbusmock's \(name) did not appear on the bus"
            }
        }
    }

    /// A bus with no service on it: what a machine without NetworkManager or the profiles daemon
    /// has.
    public init() async throws {
        (bus, address) = try await PrivateBusDaemon.start()
        services = NIOLockedValueBox([])
    }

    deinit {
        stop()
    }

    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        return environment
    }

    /// Starts NetworkManager's template, connected, with `Metered` set: NetworkManager's
    /// NMMetered, 1 for yes, 2 for no, 3 and 4 for guessed yes and no. The template has no
    /// `Metered` property of its own: it is added, as its documentation says to.
    public func startNetworkManager(metered: UInt32) async throws {
        try await start(template: "networkmanager", name: "org.freedesktop.NetworkManager")
        try await setMetered(metered, adding: true)
    }

    /// Changes `Metered` while NetworkManager's template runs, emitting PropertiesChanged as
    /// NetworkManager does.
    public func setMetered(_ metered: UInt32, adding: Bool = false) async throws {
        let method = adding ? ["org.freedesktop.DBus.Mock.AddProperty", "org.freedesktop.NetworkManager", "Metered", "<uint32 \(metered)>"]
            : ["org.freedesktop.DBus.Properties.Set", "org.freedesktop.NetworkManager", "Metered", "<uint32 \(metered)>"]
        try await call("org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager", method)
    }

    /// Starts power-profiles-daemon's template with `profile` active (`power-saver`, `balanced`,
    /// `performance`).
    public func startPowerProfiles(_ profile: String) async throws {
        try await start(template: "power_profiles_daemon", parameters: #"{"ActiveProfile": "\#(profile)"}"#, name: "net.hadess.PowerProfiles")
    }

    private func start(template: String, parameters: String? = nil, name: String) async throws {
        let environment = environment
        // A python start-up: not while a timing-sensitive suite runs.
        let wait = try await HeavyWork.exclusively { [services] in
            let service = try await RunningProcess("/usr/bin/python3",
                                                   ["-m", "dbusmock", "--system", "-t", template] + (parameters.map { ["-p", $0] } ?? []),
                                                   environment: environment)
            services.withLockedValue { $0.append(service) }
            return try await runTool("/usr/bin/gdbus", ["wait", "--system", "--timeout", "20", name], environment: environment)
        }
        guard wait.exited, wait.exitCode == 0 else { throw StartError.serviceNotOnBus(template) }
    }

    private func call(_ destination: String, _ path: String, _ method: [String]) async throws {
        let run = try await runTool("/usr/bin/gdbus", ["call", "--system", "--dest", destination, "--object-path", path, "--method"] + method,
                                    environment: environment)
        guard run.exited, run.exitCode == 0 else { throw StartError.serviceNotOnBus("\(destination): \(run.stderr)") }
    }

    /// Ends the services and the bus. Idempotent.
    public func stop() {
        for service in services.withLockedValue({ $0 }) { service.signal(SIGTERM) }
        bus.signal(SIGTERM)
    }
}
