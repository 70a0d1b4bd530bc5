import Foundation
import Testing
import VODAppPush

struct PushDestinationTests {
    @Test func parsesUDPAndHTTPDestinations() {
        #expect(PushDestination("udp://127.0.0.1:9930") == .udp(host: "127.0.0.1", port: 9930))
        #expect(PushDestination("udp://localhost:9930/") == .udp(host: "localhost", port: 9930))
        #expect(PushDestination("udp://[::1]:9930") == .udp(host: "::1", port: 9930))
        #expect(PushDestination("http://127.0.0.1:9931/push?wait=1") == .http(URL(string: "http://127.0.0.1:9931/push?wait=1")!))
        #expect(PushDestination("https://hooks.example/hooks/vodapp") != nil)
        #expect(PushDestination.defaultUDP.description == "udp://127.0.0.1:9930")
    }

    @Test(arguments: ["", "127.0.0.1:9930", "udp://127.0.0.1", "udp://127.0.0.1:0", "udp://127.0.0.1:70000",
                      "udp://127.0.0.1:9930/push", "tcp://127.0.0.1:9930", "ftp://h/x", "http://", "file:///tmp/x"])
    func refusesWhatItCannotSendTo(_ text: String) {
        #expect(PushDestination(text) == nil)
    }
}
