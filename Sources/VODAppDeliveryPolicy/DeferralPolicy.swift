import VODAppDevice

/// Whether a delivery fetches on a metered connection or in power-saver mode (`--on-metered`,
/// `--on-power-saver`). GNOME's guidance, and the most requested feature of podcast apps'
/// trackers: automatic downloads wait for a connection that costs nothing and a device that is
/// not saving power.
public struct DeferralPolicy: Sendable, Equatable {
    public enum Choice: String, Sendable, CaseIterable {
        case fetch
        case `defer`
    }

    /// Why a delivery defers its items.
    public enum Reason: Sendable, Equatable {
        case metered
        case powerSaver
        /// Both at once: naming one alone would send the user to an option that fetches nothing.
        case meteredAndPowerSaver

        /// What the report's `error` says.
        package var explanation: String {
            switch self {
            case .metered: "deferred: the network connection is metered (--on-metered fetch fetches anyway)"
            case .powerSaver: "deferred: power saver is on (--on-power-saver fetch fetches anyway)"
            case .meteredAndPowerSaver:
                "deferred: the network connection is metered and power saver is on (--on-metered fetch --on-power-saver fetch fetches anyway)"
            }
        }

        /// What the items wait for, in the notification.
        package var awaited: String {
            switch self {
            case .metered: "a connection that is not metered"
            case .powerSaver: "power saver to be off"
            case .meteredAndPowerSaver: "a connection that is not metered and power saver to be off"
            }
        }
    }

    public var onMetered: Choice
    public var onPowerSaver: Choice

    public init(onMetered: Choice = .defer, onPowerSaver: Choice = .defer) {
        self.onMetered = onMetered
        self.onPowerSaver = onPowerSaver
    }

    /// Whether any condition can defer a delivery, so that the device is worth asking.
    public var defersAnything: Bool { onMetered == .defer || onPowerSaver == .defer }

    /// Why a delivery under `conditions` defers its items; nil when it fetches them.
    package func reason(under conditions: DeviceConditions) -> Reason? {
        switch (conditions.metered && onMetered == .defer, conditions.powerSaver && onPowerSaver == .defer) {
        case (true, true): .meteredAndPowerSaver
        case (true, false): .metered
        case (false, true): .powerSaver
        case (false, false): nil
        }
    }
}
