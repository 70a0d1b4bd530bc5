/// Where a delivery learns the device's conditions (`DeviceConditions`): the system's monitors
/// in vodapp, a fixed value in a unit test of what deferral does, with no bus to fake.
public protocol DeviceConditionSource: Sendable {
    /// Starts whatever answers, without waiting for it, before the delivery reads DIR.
    func prepare()
    /// The conditions now.
    func current() async -> DeviceConditions
}

/// The system's monitors, through GLib (`DeviceConditions.current`).
public struct SystemDeviceConditions: DeviceConditionSource {
    public init() {}

    public func prepare() { DeviceConditions.prepare() }

    public func current() async -> DeviceConditions { await DeviceConditions.current() }
}

/// Conditions that do not change: what a test, or a caller that already knows, says they are.
public struct FixedDeviceConditions: DeviceConditionSource {
    public let conditions: DeviceConditions

    public init(_ conditions: DeviceConditions) {
        self.conditions = conditions
    }

    public func prepare() {}

    public func current() async -> DeviceConditions { conditions }
}
