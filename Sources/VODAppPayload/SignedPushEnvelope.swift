import Foundation

/// A push signed for a channel without headers (an MQTT message): the payload travels as a JSON
/// string beside its `PushSignature`:
///
///     {"vodapp-signature":{"t":1732500000,"v1":"<hex>"},"payload":"{\"aps\":{…},\"playlist\":{…}}"}
///
/// `v1` is the hex HMAC-SHA256 of `<t>.<the payload string's UTF-8 bytes>`. The payload is a
/// string, not an object, because the signature must cover exact bytes: a broker, a bridge or a
/// tool that re-serialises JSON may reorder keys or change spacing inside an object, never the
/// characters of a string.
public struct SignedPushEnvelope: Sendable, Equatable {
    public static let signatureKey = "vodapp-signature"

    public let timestamp: Int64
    /// `v1=` and the code in hex, as `PushSignature.sign` makes it.
    public let signature: String
    /// The push's bytes, exactly as signed.
    public let payload: Data

    /// Why a message is not a signed push.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case notAnEnvelope
        case rejected(PushSignature.Rejection)

        public var description: String {
            switch self {
            case .notAnEnvelope:
                "not a signed push: a secret is set, and the message is not {\"\(SignedPushEnvelope.signatureKey)\":{\"t\":…,\"v1\":…},\"payload\":\"…\"} (vodapp-push send --secret makes one)"
            case .rejected(let rejection):
                rejection.description
            }
        }
    }

    private struct Wire: Codable {
        struct Signature: Codable {
            let t: Int64
            let v1: String
        }

        let signature: Signature
        let payload: String

        enum CodingKeys: String, CodingKey {
            case signature = "vodapp-signature"
            case payload
        }
    }

    /// Signs `payload` at `timestamp`.
    public init(signing payload: Data, with signature: PushSignature, at timestamp: Int64) {
        self.timestamp = timestamp
        self.signature = signature.sign(payload, at: timestamp)
        self.payload = payload
    }

    /// Reads an envelope; its signature is not checked here (`open` does).
    public init(message: Data) throws(Failure) {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: message) else { throw .notAnEnvelope }
        timestamp = wire.signature.t
        signature = PushSignature.prefix + wire.signature.v1
        payload = Data(wire.payload.utf8)
    }

    /// The message to publish: compact JSON, the payload as one string.
    public var message: Data {
        let wire = Wire(signature: .init(t: timestamp, v1: String(signature.dropFirst(PushSignature.prefix.count))),
                        payload: String(decoding: payload, as: UTF8.self))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding two strings and a number cannot fail.
        return (try? encoder.encode(wire)) ?? Data()
    }

    /// The payload, once the signature is checked against `signer` and the time `now`.
    /// - Returns: the payload's bytes and the signature's code (for the replay memory).
    public func open(with signer: PushSignature, now: Int64) throws(Failure) -> (payload: Data, code: [UInt8]) {
        do throws(PushSignature.Rejection) {
            let code = try signer.verify(timestamp: String(timestamp), signature: signature, body: payload, now: now)
            return (payload, code)
        } catch {
            throw .rejected(error)
        }
    }
}
