import Foundation

/// A `dbus-daemon` of the test's own, for a private session bus (`NotificationServer`) or one that
/// plays the system bus (`SystemBus`).
enum PrivateBusDaemon {
    struct NoAddress: Error, CustomStringConvertible {
        var description: String { "dbus-daemon printed no address" }
    }

    /// Starts the daemon and returns it with the address it printed.
    static func start() async throws -> (daemon: RunningProcess, address: String) {
        let bus = try await RunningProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1"],
                                           environment: ProcessInfo.processInfo.environment)
        do {
            try await bus.wait(for: "dbus-daemon's address", timeout: .seconds(10)) { bus.stdout.contains("\n") || !bus.isRunning }
        } catch {
            bus.signal(SIGTERM)
            throw NoAddress()
        }
        let line = bus.stdout.prefix { $0 != "\n" }
        guard !line.isEmpty else {
            bus.signal(SIGTERM)
            throw NoAddress()
        }
        return (bus, String(line))
    }
}
