import ArgumentParser
import CommandSupport
import Foundation
import VODAppPayload
import VODAppPush

struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send a push to vodapp listen (or any receiver): one UDP datagram, or one POST.",
        discussion: """
        PAYLOAD is a JSON object with "aps": a vodapp payload, or a simctl .apns file. It is \
        sent as compact JSON, whole or not at all: a payload too large for one datagram is an \
        error, never cut. Above 4096 bytes (APNs' limit) there is a warning.

        Over HTTP, --secret (or VODAPP_WEBHOOK_SECRET) signs the body with \
        X-Hub-Signature-256, and the receiver's answer is printed on stdout.

        Exit codes: 0 sent (UDP) or accepted (HTTP 2xx); 64 bad command line; 65 not a push; \
        66 payload unreadable; 69 could not send, or the receiver refused.

        Examples:
          vodapp-push send SamplePayloads/vodapp-sample-local.json
          vodapp-push send payload.json --to 'http://127.0.0.1:9931/push?wait=1' --secret s3cret
        """
    )

    @Argument(help: ArgumentHelp("The payload: a JSON or .apns file, or - for standard input.", valueName: "payload"))
    var payload: String = "-"

    @Option(help: ArgumentHelp("udp://HOST:PORT or an http(s) URL. Default: \(PushDestination.defaultUDP).", valueName: "destination"), transform: OptionValue.pushDestination)
    var to: PushDestination = PushDestination.defaultUDP

    @Option(help: ArgumentHelp("Sign HTTP pushes with this secret. Default: $VODAPP_WEBHOOK_SECRET.", valueName: "secret"))
    var secret: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Give up on an HTTP push after this many seconds. Default: 60.", valueName: "seconds"),
            transform: OptionValue.seconds(atMost: 3600))
    var timeout: Duration = .seconds(60)

    @Flag(name: .shortAndLong, help: "Nothing on stderr but errors.")
    var quiet = false

    func run() async throws {
        let destination = to
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
        if case .udp = destination {
            if secret != nil, !quiet { StandardError.warn("UDP pushes cannot be signed; --secret is ignored") }
            signingSecret = nil
        }
        let sent: PushSender.Receipt
        do {
            sent = try await PushSender(timeout: limit).send(message.body, to: destination, secret: signingSecret)
        } catch {
            throw CommandFailure(error, about: destination.description) ?? error
        }
        switch sent {
        case .datagram(let bytes):
            if !quiet { StandardError.write("sent \(bytes) bytes to \(destination)") }
        case .accepted(_, let body):
            StandardOutput.write(body)
        }
    }
}
