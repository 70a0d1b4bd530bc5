import Foundation
import Logging
import VODAppBase
import VODAppMQTT
import VODAppPayload
import VODAppTransfer

/// Sends one push to a receiver: one UDP datagram, one POST (signed when a secret is given), or
/// one QoS 1 publication on a broker.
public struct PushSender: Sendable {
    /// What the receiver made of the push.
    public enum Receipt: Sendable, Equatable {
        /// A datagram left whole; UDP says nothing more.
        case datagram(bytes: Int)
        /// The receiver answered 2xx with this body.
        case accepted(status: Int, body: String)
        /// The broker acknowledged the publication (PUBACK): it delivers it to every subscriber,
        /// and queues it for the persistent sessions of devices away now.
        case published(bytes: Int)
    }

    /// How long an HTTP push may take, answer included (`?wait=1` answers after the delivery).
    public var timeout: Duration
    /// For `mqtts://`: a PEM file of CAs to trust instead of the system's.
    public var certificateAuthorities: String?
    /// For MQTT: the broker keeps the push and hands it to every later subscriber.
    public var retain: Bool
    private let logger: Logger

    public init(timeout: Duration = .seconds(60), certificateAuthorities: String? = nil, retain: Bool = false,
                logger: Logger = Logger(label: "vodapp-push", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.timeout = timeout
        self.certificateAuthorities = certificateAuthorities
        self.retain = retain
        self.logger = logger
    }

    /// Sends `body` as it is. Validation is the caller's: tests send bodies no sender should.
    ///
    /// With `secret`, an HTTP push carries `PushSignature`'s headers, signed at `signedAt`, and
    /// the body-only `X-Hub-Signature-256` that adnanh/webhook checks (vodapp listen ignores it);
    /// an MQTT push is published as a `SignedPushEnvelope`. UDP cannot be signed.
    /// - Parameter signedAt: Unix seconds; now unless a test says otherwise.
    /// - Throws: `PushError` when the push could not be sent or the receiver refused it.
    public func send(_ body: Data, to destination: PushDestination, secret: String? = nil,
                     signedAt: Int64 = PushSignature.now()) async throws(PushError) -> Receipt {
        switch destination {
        case .udp(let host, let port):
            try await DatagramSender.send(body, host: host, port: port)
            return .datagram(bytes: body.count)
        case .http(let url):
            var headers = ["Content-Type: application/json"]
            if let secret {
                headers.append("\(PushSignature.timestampHeader): \(signedAt)")
                headers.append("\(PushSignature.signatureHeader): \(PushSignature(secret: secret).sign(body, at: signedAt))")
                headers.append("\(WebhookSignature.headerName): \(WebhookSignature(secret: secret).sign(body))")
            }
            let answer: SingleRequest.Answer
            do {
                answer = try await SingleRequest(url: url, method: .post(body), headers: headers, timeout: timeout).perform()
            } catch {
                throw .cannotSend("cannot POST: \(error)")
            }
            guard (200..<300).contains(answer.status) else {
                throw .refused(status: answer.status, reason: Self.reason(in: answer.text))
            }
            return .accepted(status: answer.status, body: answer.text)
        case .mqtt(let broker):
            let message = secret.map { SignedPushEnvelope(signing: body, with: PushSignature(secret: $0), at: signedAt).message } ?? body
            do {
                try await BrokerPublisher(broker: broker, caFile: certificateAuthorities, timeout: timeout)
                    .publish(message, retain: retain, logger: logger)
            } catch {
                throw .broker(error)
            }
            return .published(bytes: message.count)
        }
    }

    /// The `error` of a JSON error body (vodapp listen's), else the body's first line.
    static func reason(in body: String) -> String {
        if let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
           let error = object["error"] as? String {
            return UntrustedText.sanitized(error, limit: 300, replacingControlsWith: "?")
        }
        let line = body.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return UntrustedText.sanitized(line, limit: 300, replacingControlsWith: "?")
    }
}

/// Why a push did not arrive. Each renders as one line.
public enum PushError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLargeForDatagram(bytes: Int, limit: Int)
    case cannotSend(String)
    case refused(status: Int, reason: String)
    case broker(BrokerError)

    public var description: String {
        switch self {
        case .tooLargeForDatagram(let bytes, let limit):
            "the payload is \(bytes) bytes, more than one UDP datagram carries (\(limit)); send it over HTTP instead"
        case .cannotSend(let reason):
            reason
        case .refused(let status, let reason):
            reason.isEmpty ? "the receiver refused the push (HTTP \(status))" : "the receiver refused the push (HTTP \(status)): \(reason)"
        case .broker(let error):
            error.description
        }
    }
}

extension PushError: ExitStatusProviding {
    /// As the broker's error, for one; 69 otherwise.
    public var exitStatus: ExitStatus {
        if case .broker(let broker) = self { return broker.exitStatus }
        return .unavailable
    }
}
