import Testing
import VODAppDevice

/// When vodapp need not ask GLib about the device: only where no service could answer.
@Suite struct DeviceConditionsTests {
    private static let systemBus = "/var/run/dbus/system_bus_socket"

    @Test func withNoSystemBusNoSandboxAndNoRedirectionNothingCanAnswer() {
        #expect(DeviceConditions.noServiceCanAnswer(environment: ["HOME": "/root", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/0/bus"],
                                                    exists: { _ in false }))
    }

    @Test(arguments: [Self.systemBus, "/run/dbus/system_bus_socket", "/.flatpak-info"])
    func aSystemBusOrASandboxIsAskedThroughGLib(_ present: String) {
        #expect(!DeviceConditions.noServiceCanAnswer(environment: [:], exists: { $0 == present }))
    }

    @Test(arguments: ["DBUS_SYSTEM_BUS_ADDRESS", "GIO_USE_NETWORK_MONITOR", "GIO_USE_POWER_PROFILE_MONITOR", "GIO_USE_PORTALS",
                      "GTK_USE_PORTAL", "GIO_MODULE_DIR", "GIO_EXTRA_MODULES", "SNAP"])
    func anythingThatSendsGLibElsewhereIsLeftToGLib(_ variable: String) {
        #expect(!DeviceConditions.noServiceCanAnswer(environment: [variable: ""], exists: { _ in false }))
    }
}
