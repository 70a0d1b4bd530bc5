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
        _ = Monitors.shared
    }

    /// The conditions now. The monitors start with the first call (or `prepare`), on a thread of
    /// their own that keeps them up to date for the life of the process (a listener's deliveries
    /// read the latest); the first call waits for their first answers, at most `patience`: the
    /// services answer in milliseconds, a system bus that does not answer must not hold a
    /// delivery, and what is not known is not said.
    public static func current(patience: Duration = .milliseconds(250)) async -> DeviceConditions {
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
