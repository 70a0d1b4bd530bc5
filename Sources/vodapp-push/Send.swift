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

    @Option(help: ArgumentHelp("udp://HOST:PORT or an http(s) URL.", valueName: "destination"))
    var to: String = PushDestination.defaultUDP.description

    @Option(help: ArgumentHelp("Sign HTTP pushes with this secret. Default: $VODAPP_WEBHOOK_SECRET.", valueName: "secret"))
    var secret: String?

    @Option(help: ArgumentHelp("Give up on an HTTP push after this many seconds.", valueName: "seconds"))
    var timeout: Double = 60

    @Flag(name: .shortAndLong, help: "Nothing on stderr but errors.")
    var quiet = false

    func validate() throws {
        guard PushDestination(to) != nil else {
            throw ValidationError("--to must be udp://HOST:PORT or an http:// or https:// URL, not '\(to)'")
        }
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
            throw ValidationError("--timeout must be a number of seconds above 0, at most 3600")
        }
    }

    func run() async throws {
        guard let destination = PushDestination(to) else { throw ExitCode.validationFailure }
        let limit = Duration.milliseconds(Int64(timeout * 1000))
        let message: PushMessage
        do {
            let data = try PayloadSource(argument: payload).read(limit: Payload.maximumSize, deadline: .now + limit)
            message = try PushMessage(data: data)
        } catch let error as PayloadSource.ReadError {
            throw Failure.report(error.description, status: .payloadUnreadable)
        } catch {
            throw Failure.report("\(error)", status: .invalidPayload)
        }
        if !quiet {
            if message.body.count > PushMessage.apnsLimit {
                Failure.warn("the payload is \(message.body.count) bytes, over APNs' \(PushMessage.apnsLimit)-byte limit: a real push this large would be refused")
            }
            if let refusal = message.refusalByVodapp {
                Failure.warn("vodapp will refuse this push: \(refusal)")
            }
        }

        var signingSecret = secret ?? Environment.value("VODAPP_WEBHOOK_SECRET")
        if case .udp = destination {
            if secret != nil, !quiet { Failure.warn("UDP pushes cannot be signed; --secret is ignored") }
            signingSecret = nil
        }
        do {
            switch try await PushSender(timeout: limit).send(message.body, to: destination, secret: signingSecret) {
            case .datagram(let bytes):
                if !quiet { FileHandle.standardError.write(Data("vodapp-push: sent \(bytes) bytes to \(destination)\n".utf8)) }
            case .accepted(_, let body):
                FileHandle.standardOutput.write(Data((body.hasSuffix("\n") ? body : body + "\n").utf8))
            }
        } catch {
            throw Failure.report("\(destination): \(error)", status: .unavailable)
        }
    }
}
