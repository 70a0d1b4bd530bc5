import ArgumentParser
import CommandSupport
import Foundation
import VODAppBase
import VODAppPayload
import VODAppPush

struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a push to vodapp listen (or any receiver): one UDP datagram, one POST, or one MQTT publication.",
        discussion: """
        PAYLOAD is a JSON object with "aps": a vodapp payload, or a simctl .apns file. It is \
        sent as compact JSON, whole or not at all: a payload too large for one datagram is an \
        error, never cut. Above 4096 bytes (APNs' limit) there is a warning.

        Over HTTP, --secret (or VODAPP_WEBHOOK_SECRET) signs the push now: \
        X-VODApp-Timestamp: <Unix seconds> and X-VODApp-Signature: v1=<hex HMAC-SHA256 of \
        "<timestamp>.<body>">, which vodapp listen requires (within 5 minutes, once), and \
        X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>, which adnanh/webhook \
        checks (Examples/webhook). The receiver's answer is printed on stdout. Over MQTT, \
        --secret publishes the signed envelope \
        {"vodapp-signature":{"t":<timestamp>,"v1":"<hex>"},"payload":"<the payload as a string>"} \
        that vodapp listen requires with a secret. UDP pushes cannot be signed.

        Over MQTT (--to mqtt[s]://[user[:password]@]HOST[:PORT]/TOPIC), it is published at QoS \
        1 and the command waits for the broker's acknowledgement: every subscribed vodapp \
        listen gets it, and one that is away gets it when it connects again. The password: \
        VODAPP_MQTT_PASSWORD, else the URL's. --retain has the broker keep it for listeners \
        that subscribe later. mqtts:// trusts --cacert's CAs, else the system's.

        Exit codes: 0 sent (UDP), accepted (HTTP 2xx) or acknowledged (MQTT); 64 bad command \
        line; 65 not a push; 66 payload unreadable; 69 could not send, or the receiver refused; \
        77 the broker refused the credentials.

        Examples:
          vodapp-push send SamplePayloads/vodapp-sample-local.json
          vodapp-push send payload.json --secret s3cret \\
            --to 'http://127.0.0.1:9931/push?wait=1'
          VODAPP_MQTT_PASSWORD=s3cret vodapp-push send payload.json \\
            --to mqtts://publisher@broker.example.com/vodapp/kiosks/7

        More: docs/PUSH.md, and docs/LISTEN.md for what the receiver checks (installed under \
        /usr/share/doc/vodapp/).
        """
    )

    @Argument(help: ArgumentHelp("The payload: a JSON or .apns file, or - for standard input.", valueName: "payload"), completion: .file())
    var payload: String = "-"

    @Option(help: ArgumentHelp("udp://HOST:PORT, an http(s) URL, or mqtt[s]://[USER@]HOST[:PORT]/TOPIC. Default: \(PushDestination.defaultUDP).", valueName: "destination"),
            transform: OptionValue.pushDestination)
    var to: PushDestination = PushDestination.defaultUDP

    @Option(help: ArgumentHelp("Sign HTTP and MQTT pushes with this secret, over the time and the body. Default: $VODAPP_WEBHOOK_SECRET.", valueName: "secret"))
    var secret: String?

    @Flag(help: "MQTT: the broker keeps the push and hands it to listeners that subscribe later.")
    var retain = false

    @Option(name: .customLong("cacert"), help: ArgumentHelp("mqtts: trust the CAs in this PEM file instead of the system's.", valueName: "file"),
            completion: .file())
    var certificateAuthorities: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Give up on an HTTP or MQTT push after this many seconds. Default: 60.", valueName: "seconds"),
            transform: OptionValue.seconds(atMost: 3600))
    var timeout: Duration = .seconds(60)

    @Flag(name: .shortAndLong, help: "Nothing on stderr but errors.")
    var quiet = false

    func validate() throws {
        // An empty key signs, and the listener answers "does not match": say so here instead.
        if let secret, secret.isEmpty { throw ValidationError("--secret must not be empty") }
        if secret == nil, let set = ProcessInfo.processInfo.environment["VODAPP_WEBHOOK_SECRET"], set.isEmpty {
            throw ValidationError("VODAPP_WEBHOOK_SECRET is set but empty: give it the listener's secret, or unset it to send unsigned")
        }
        guard case .mqtt(let broker) = to else {
            if retain { throw ValidationError("--retain is for MQTT destinations (--to mqtt://...)") }
            if certificateAuthorities != nil { throw ValidationError("--cacert is for mqtts:// destinations") }
            return
        }
        if let certificateAuthorities {
            guard broker.usesTLS else { throw ValidationError("--cacert is for mqtts:// destinations; \(broker) is plain MQTT") }
            guard FileManager.default.isReadableFile(atPath: certificateAuthorities) else {
                throw ValidationError("--cacert \(certificateAuthorities): no readable file there")
            }
            if let problem = CertificateFile.problem(at: certificateAuthorities) {
                throw ValidationError("--cacert \(certificateAuthorities): \(problem)")
            }
        }
        if broker.user == nil, Environment.value("VODAPP_MQTT_PASSWORD") != nil {
            throw ValidationError("VODAPP_MQTT_PASSWORD is set, and the broker URL names no user: write it as mqtt://USER@\(broker.server)/\(broker.topic)")
        }
    }

    func run() async throws {
        var destination = to
        if case .mqtt(let broker) = destination, let password = Environment.value("VODAPP_MQTT_PASSWORD") {
            destination = .mqtt(broker.with(password: password))
        }
        let limit = timeout
        let data = try PayloadSource(argument: payload).read(limit: Payload.maximumSize, deadline: .now + limit)
        let message = try PushMessage(data: data)
        if !quiet {
            if message.body.count > PushMessage.apnsLimit {
                StandardError.warn("the payload is \(message.body.count) bytes, over APNs' \(PushMessage.apnsLimit)-byte limit: a real push this large would be refused")
            }
            if let refusal = message.refusalByVodapp {
                StandardError.warn("vodapp will refuse this push: \(refusal)")
            }
        }

        var signingSecret = secret ?? Environment.value("VODAPP_WEBHOOK_SECRET")
        switch destination {
        case .udp:
            if secret != nil, !quiet { StandardError.warn("UDP pushes cannot be signed; --secret is ignored") }
            signingSecret = nil
        case .http, .mqtt:
            break
        }
        let sent: PushSender.Receipt
        do {
            sent = try await PushSender(timeout: limit, certificateAuthorities: certificateAuthorities, retain: retain)
                .send(message.body, to: destination, secret: signingSecret)
        } catch {
            throw CommandFailure(error, about: destination.description) ?? error
        }
        switch sent {
        case .datagram(let bytes):
            if !quiet { StandardError.write("sent \(bytes) bytes to \(destination)") }
        case .accepted(_, let body):
            StandardOutput.write(body)
        case .published(let bytes):
            if !quiet { StandardError.write("published \(bytes) bytes to \(destination), and the broker acknowledged them") }
        }
    }
}
