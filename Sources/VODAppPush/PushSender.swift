import Foundation
import VODAppBase
import VODAppPayload
import VODAppTransfer

/// Sends one push to a receiver: one UDP datagram, or one POST, signed when a secret is given.
public struct PushSender: Sendable {
    /// What the receiver made of the push.
    public enum Receipt: Sendable, Equatable {
        /// A datagram left whole; UDP says nothing more.
        case datagram(bytes: Int)
        /// The receiver answered 2xx with this body.
        case accepted(status: Int, body: String)
    }

    /// How long an HTTP push may take, answer included (`?wait=1` answers after the delivery).
    public var timeout: Duration

    public init(timeout: Duration = .seconds(60)) {
        self.timeout = timeout
    }

    /// Sends `body` as it is. Validation is the caller's: tests send bodies no sender should.
    /// - Throws: `PushError` when the push could not be sent or the receiver refused it.
    public func send(_ body: Data, to destination: PushDestination, secret: String? = nil) async throws(PushError) -> Receipt {
        switch destination {
        case .udp(let host, let port):
            try await DatagramSender.send(body, host: host, port: port)
            return .datagram(bytes: body.count)
        case .http(let url):
            var headers = ["Content-Type: application/json"]
            if let secret {
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

    public var description: String {
        switch self {
        case .tooLargeForDatagram(let bytes, let limit):
            "the payload is \(bytes) bytes, more than one UDP datagram carries (\(limit)); send it over HTTP instead"
        case .cannotSend(let reason):
            reason
        case .refused(let status, let reason):
            reason.isEmpty ? "the receiver refused the push (HTTP \(status))" : "the receiver refused the push (HTTP \(status)): \(reason)"
        }
    }
}
