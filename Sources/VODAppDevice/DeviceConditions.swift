import CGio
import Foundation

/// What the device says about fetching now: a metered connection, power-saver mode. Read as GNOME
/// asks applications to read them, through GLib's GNetworkMonitor (which asks NetworkManager) and
/// GPowerProfileMonitor (which asks power-profiles-daemon); where neither service runs, neither
/// is said, and nothing is deferred.
public struct DeviceConditions: Sendable, Equatable {
    public var metered: Bool
    public var powerSaver: Bool

    public init(metered: Bool = false, powerSaver: Bool = false) {
        self.metered = metered
        self.powerSaver = powerSaver
    }

    /// Starts the monitors, if they are not running yet, without waiting for them: a delivery
    /// calls this before its plan, so that their first answers come while it reads DIR and the
    /// store.
    public static func prepare() {
        guard !unanswerable else { return }
        _ = Monitors.shared
    }

    /// Whether no service can answer in this process (`noServiceCanAnswer`), looked at once.
    private static let unanswerable = noServiceCanAnswer(environment: ProcessInfo.processInfo.environment) { path in
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether GLib's monitors could only say "not metered, no power saver": no system bus at
    /// the address GLib would use, and nothing that makes GLib look elsewhere (another bus
    /// address, a monitor or module of the user's choice, a sandbox whose portals answer on the
    /// session bus).
    ///
    /// NetworkManager and power-profiles-daemon answer over the system bus; without one, GLib
    /// falls back to its netlink monitor, which never says metered, and to none for power. A
    /// server or container without D-Bus, where vodapp is often a webhook's handler, then loaded
    /// GIO, GObject and their libraries (2.7 MiB, and milliseconds) to learn that. Anything that
    /// might tell GLib otherwise leaves the question to GLib.
    package static func noServiceCanAnswer(environment: [String: String], exists: (String) -> Bool) -> Bool {
        let redirections = ["DBUS_SYSTEM_BUS_ADDRESS", "GIO_USE_NETWORK_MONITOR", "GIO_USE_POWER_PROFILE_MONITOR",
                            "GIO_USE_PORTALS", "GTK_USE_PORTAL", "GIO_MODULE_DIR", "GIO_EXTRA_MODULES", "SNAP"]
        guard !redirections.contains(where: { environment[$0] != nil }) else { return false }
        return !["/var/run/dbus/system_bus_socket", "/run/dbus/system_bus_socket", "/.flatpak-info"].contains(where: exists)
    }

    /// The conditions now. The monitors start with the first call (or `prepare`), on a thread of
    /// their own that keeps them up to date for the life of the process (a listener's deliveries
    /// read the latest); the first call waits for their first answers, at most `patience`: the
    /// services answer in milliseconds, a system bus that does not answer must not hold a
    /// delivery, and what is not known is not said.
    public static func current(patience: Duration = .milliseconds(250)) async -> DeviceConditions {
        guard !unanswerable else { return DeviceConditions() }
        let monitors = Monitors.shared
        let deadline = ContinuousClock.now + patience
        while !monitors.answered, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return monitors.conditions
    }

    /// The monitoring thread and what it last saw. Never freed: it lives as long as the process.
    private final class Monitors: @unchecked Sendable {
        // The thread writes the answers atomically and the readers read them atomically (CGio's
        // functions): that is the only sharing, hence @unchecked.
        private let state: OpaquePointer

        static let shared = Monitors()

        private init() {
            guard let made = vod_device_conditions_new() else { preconditionFailure("no memory for the device's conditions") }
            state = made
            let address = Int(bitPattern: made)
            let thread = Thread {
                guard let pointer = OpaquePointer(bitPattern: address) else { return }
                vod_device_conditions_run(pointer)
            }
            thread.name = "vodapp-device"
            thread.start()
        }

        var answered: Bool {
            vod_device_conditions_answered(state) != 0
        }

        var conditions: DeviceConditions {
            DeviceConditions(metered: vod_device_conditions_metered(state) != 0,
                             powerSaver: vod_device_conditions_power_saver(state) != 0)
        }
    }
}
