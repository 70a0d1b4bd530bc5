import Foundation
import Testing
import VODAppDelivery
@testable import VODAppListen
import VODAppMQTT
import VODAppTransferPolicy

/// Which pushes carry the person's credentials, and may make room by removing what other pushes
/// brought: a pure decision on the push's authentication.
struct PushAuthenticationTests {
    private var credentialed: DeliveryOptions {
        var options = DeliveryOptions(directory: "/tmp/dir")
        options.headers = ["X-Test: open-sesame"]
        options.headerHosts = [HeaderScope("http://127.0.0.1:8080")].compactMap { $0 }
        options.cookieFile = "/tmp/cookies.txt"
        options.userAgent = "secret-agent/1"
        return options
    }

    @Test(arguments: [PushAuthentication.signed, .poll])
    func anAuthenticatedPushKeepsEveryCredential(_ authentication: PushAuthentication) {
        #expect(credentialed.forPush(vouchedBy: authentication) == credentialed)
        #expect(credentialed.forPush(vouchedBy: authentication).vouched)
    }

    @Test func anUnauthenticatedPushHasNone() {
        let options = credentialed.forPush(vouchedBy: .unauthenticated)
        #expect(options.headers.isEmpty && options.cookieFile == nil && options.headerHosts.isEmpty)
        #expect(options.userAgent == DeliveryOptions.defaultUserAgent)
        #expect(!options.vouched)
        // Everything else is as it was.
        #expect(options.directory == credentialed.directory && options.budget == credentialed.budget)
    }

    @Test func eachReceiverIsAuthenticatedAsItsSetUpSays() throws {
        let open = try BrokerURL("mqtt://broker/vodapp/#", for: .subscribe)
        let withUser = try BrokerURL("mqtt://kiosk7@broker/vodapp/#", for: .subscribe)
        var configuration = ListenerConfiguration(delivery: credentialed)
        #expect(configuration.receiverAuthentication == ["UDP": .unauthenticated, "HTTP": .unauthenticated])
        configuration.mqtt = BrokerSubscription.Settings(broker: open, clientID: "c")
        #expect(configuration.receiverAuthentication["MQTT"] == .unauthenticated)
        // A login to the broker vouches for nobody: the broker may let anonymous clients publish
        // (the attacker trial's mosquitto, with allow_anonymous and a password file).
        configuration.mqtt = BrokerSubscription.Settings(broker: withUser, clientID: "c")
        #expect(configuration.receiverAuthentication["MQTT"] == .unauthenticated)
        #expect(configuration.notes.isEmpty)
        #expect(configuration.warnings.contains { $0.contains("no receiver here authenticates its pushes") }, "\(configuration.warnings)")
        configuration.secret = "s3cret"
        configuration.mqtt = BrokerSubscription.Settings(broker: withUser, clientID: "c")
        #expect(configuration.receiverAuthentication == ["UDP": .unauthenticated, "HTTP": .signed, "MQTT": .signed])
        #expect(configuration.notes == ["--header, --cookies and --user-agent go only with authenticated pushes (signed, or --poll's); items of UDP pushes are fetched without them"])
        configuration.udp = nil
        configuration.mqtt = BrokerSubscription.Settings(broker: open, clientID: "c")
        #expect(configuration.receiverAuthentication == ["HTTP": .signed, "MQTT": .signed])
        #expect(configuration.notes.isEmpty)
        // Without credentials there is nothing to say.
        #expect(ListenerConfiguration(delivery: DeliveryOptions(directory: "/tmp/dir")).notes.isEmpty)

        // The answers of --poll carry them: no warning that nothing will, a note that the rest do
        // not (the seventh attacker trial was told no item would, and the poll's item went with them).
        var polling = ListenerConfiguration(delivery: credentialed)
        polling.pollOnConnect = PayloadPoll(url: URL(string: "https://publisher.example/vodapp.json")!, token: nil)
        #expect(polling.receiverAuthentication == ["UDP": .unauthenticated, "HTTP": .unauthenticated, "poll": .poll])
        #expect(!polling.warnings.contains { $0.contains("no receiver here authenticates its pushes") }, "\(polling.warnings)")
        #expect(polling.notes == ["--header, --cookies and --user-agent go only with authenticated pushes (signed, or --poll's); items of HTTP and UDP pushes are fetched without them"])
    }

    @Test func udpBesideASecretIsAWarning() {
        var configuration = ListenerConfiguration(secret: "s3cret", delivery: DeliveryOptions(directory: "/tmp/dir"))
        #expect(configuration.warnings.count == 1)
        #expect(configuration.warnings.first?.contains("UDP pushes are not authenticated") == true)
        // Off because of the secret: `vodapp-push send` to UDP would find nobody, which is said.
        configuration.udp = nil
        #expect(configuration.warnings.count == 1 && configuration.warnings[0].contains("give --udp to take unsigned UDP pushes as well"),
                "\(configuration.warnings)")
        configuration.udpTurnedOff = true
        #expect(configuration.warnings.isEmpty)
    }

    /// Credentials that no receiver can ever carry are a mistake worth a warning, not a note.
    @Test func credentialsNoReceiverCarriesAreAWarning() throws {
        let configuration = ListenerConfiguration(delivery: credentialed)
        #expect(configuration.notes.isEmpty)
        #expect(configuration.warnings.contains { $0.hasPrefix("--header, --cookies and --user-agent go only with authenticated pushes, and no receiver here authenticates") },
                "\(configuration.warnings)")
        var signed = configuration
        signed.secret = "s3cret"
        #expect(!signed.warnings.contains { $0.contains("no receiver here authenticates") }, "\(signed.warnings)")
    }
}
