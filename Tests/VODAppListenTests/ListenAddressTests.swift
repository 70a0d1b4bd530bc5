import Testing
import VODAppDelivery
import VODAppListen

struct ListenAddressTests {
    @Test func parsesHostAndPort() {
        #expect(ListenAddress("127.0.0.1:9930") == ListenAddress(host: "127.0.0.1", port: 9930))
        #expect(ListenAddress("[::1]:9931") == ListenAddress(host: "::1", port: 9931))
        #expect(ListenAddress("0.0.0.0:0") == ListenAddress(host: "0.0.0.0", port: 0))
        #expect(ListenAddress(host: "::1", port: 9931).description == "[::1]:9931")
    }

    @Test(arguments: ["", "9930", ":9930", "127.0.0.1:", "127.0.0.1:x", "127.0.0.1:65536", "::1:9930", "[::1]9930"])
    func refusesWhatIsNotHostColonPort(_ text: String) {
        #expect(ListenAddress(text) == nil)
    }

    @Test func warnsAboutReceiversOthersCanReach() {
        let options = DeliveryOptions(directory: "/tmp/v")
        #expect(ListenerConfiguration(delivery: options).warnings.isEmpty)
        let open = ListenerConfiguration(udp: ListenAddress("0.0.0.0:9930"), http: ListenAddress("0.0.0.0:9931"), delivery: options)
        #expect(open.warnings.count == 2)
        var signed = ListenerConfiguration(udp: nil, http: ListenAddress("0.0.0.0:9931"), secret: "s", delivery: options)
        // Signed HTTP may be reachable; that the secret turned UDP off is said, unless --no-udp did.
        #expect(signed.warnings.count == 1 && signed.warnings[0].hasPrefix("UDP is off because a secret is set"), "\(signed.warnings)")
        signed.udpTurnedOff = true
        #expect(signed.warnings.isEmpty)
        let udpOnly = ListenerConfiguration(udp: ListenAddress("192.168.1.2:9930"), http: nil, secret: "s", delivery: options)
        #expect(udpOnly.warnings.count == 1)
        #expect(udpOnly.warnings.first?.contains("UDP pushes are not authenticated: any process on the network") == true)
    }
}
