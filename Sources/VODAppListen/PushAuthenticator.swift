import Foundation
import VODAppPayload

/// A listener's check of signed pushes: the signature over a time and the bytes
/// (`PushSignature`), and the memory of those already taken (`SignatureMemory`).
package struct PushAuthenticator: Sendable {
    /// Why a signed push is refused: HTTP answers 401 for the first, 409 for a replay, and 503
    /// when the memory is full.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case unauthorized(PushSignature.Rejection)
        case replayed
        case memoryFull(capacity: Int)
        case unrecorded(reason: String)

        var description: String {
            switch self {
            case .unauthorized(let rejection): rejection.description
            case .replayed: "this signature was already accepted: a push is taken once (replay protection); sign it again to send it again (the same body signed within the same second is the same signature: wait a second)"
            case .memoryFull(let capacity):
                "\(capacity) signed pushes arrived in the last \(PushSignature.tolerance) s, the most this listener remembers; try again shortly"
            case .unrecorded(let reason):
                "the listener cannot record this push's signature (\(reason)), so it cannot tell a replay of it; try again once DIR's disk has room"
            }
        }
    }

    let signature: PushSignature
    let memory: SharedSignatureMemory
    /// Unix seconds; a test sets the clock.
    let now: @Sendable () -> Int64

    package init(secret: String, memory: SharedSignatureMemory = SharedSignatureMemory(), now: @escaping @Sendable () -> Int64 = PushSignature.now) {
        signature = PushSignature(secret: secret)
        self.memory = memory
        self.now = now
    }

    /// The time check alone, which needs no body.
    func checkTime(_ timestamp: String?) throws(Refusal) {
        do throws(PushSignature.Rejection) {
            _ = try PushSignature.checkTime(timestamp, now: now())
        } catch {
            throw .unauthorized(error)
        }
    }

    /// Checks the signature and remembers it.
    /// - Returns: its code, to `forget` when the push is not taken after all.
    func admit(timestamp: String?, signature header: String?, body: some DataProtocol) throws(Refusal) -> [UInt8] {
        let time = now()
        let code: [UInt8]
        do throws(PushSignature.Rejection) {
            code = try signature.verify(timestamp: timestamp, signature: header, body: body, now: time)
        } catch {
            throw .unauthorized(error)
        }
        try remember(code, signedAt: timestamp.flatMap { Int64($0) } ?? time, at: time)
        return code
    }

    /// Opens a signed envelope (an MQTT message): its payload once its signature is checked.
    /// `remember` takes it, after the receiver has set aside a copy it is delivering already.
    func open(_ envelope: SignedPushEnvelope) throws(Refusal) -> (payload: Data, code: [UInt8]) {
        do throws(SignedPushEnvelope.Failure) {
            return try envelope.open(with: signature, now: now())
        } catch {
            guard case .rejected(let rejection) = error else { throw .unauthorized(.missing) }
            throw .unauthorized(rejection)
        }
    }

    func forget(_ code: [UInt8]) {
        memory.forget(code)
    }

    /// Takes a checked signature, or refuses it as taken before.
    func remember(_ code: [UInt8], signedAt timestamp: Int64, at time: Int64? = nil) throws(Refusal) {
        let now = time ?? self.now()
        do throws(SignatureMemory.Refusal) {
            try memory.admit(code, signedAt: timestamp, now: now)
        } catch {
            switch error {
            case .replayed: throw .replayed
            case .full(let capacity): throw .memoryFull(capacity: capacity)
            case .unrecorded(let reason): throw .unrecorded(reason: reason)
            }
        }
    }
}
