import Crypto
import Foundation

/// The signature `vodapp listen` requires with a secret: an HMAC-SHA256 over a time and the
/// exact bytes of the push, in the scheme of Stripe's and Slack's webhooks.
///
/// The signed text is `<timestamp>.<raw body>`, the timestamp in Unix seconds as decimal digits.
/// Over HTTP it travels as two headers:
///
///     X-VODApp-Timestamp: 1732500000
///     X-VODApp-Signature: v1=<hex HMAC-SHA256 of "1732500000.<raw body>">
///
/// A signature older than `tolerance`, or as far in the future, is refused, so a captured push
/// is worthless after five minutes; within them, the receiver refuses a signature it already
/// accepted (`SignatureMemory`). The `v1=` names the scheme, so that another can follow it.
public struct PushSignature: Sendable {
    public static let timestampHeader = "X-VODApp-Timestamp"
    public static let signatureHeader = "X-VODApp-Signature"
    /// How old (or how far ahead, for a sender whose clock runs fast) a signature may be.
    public static let tolerance: Int64 = 5 * 60
    static let prefix = "v1="

    /// Why a signed push is refused, each one line a sender can act on.
    public enum Rejection: Error, Equatable, Sendable, CustomStringConvertible {
        case missing
        case malformedTimestamp
        case tooOld(seconds: Int64)
        case fromTheFuture(seconds: Int64)
        /// Not `v1=` and 64 hex digits: another scheme (a webhook sender's `sha256=`), or none.
        case malformedSignature
        case mismatch

        public var description: String {
            switch self {
            case .missing:
                "missing signature: sign with \(PushSignature.timestampHeader) and \(PushSignature.signatureHeader) (vodapp-push send --secret does)"
            case .malformedTimestamp:
                "\(PushSignature.timestampHeader) is not a time in Unix seconds"
            case .tooOld(let seconds):
                "the signature is \(seconds) s old; a push must be signed less than \(PushSignature.tolerance) s before it arrives (replay protection)"
            case .fromTheFuture(let seconds):
                "the signature's time is \(seconds) s ahead of this machine's clock; at most \(PushSignature.tolerance) s are allowed"
            case .malformedSignature:
                "\(PushSignature.signatureHeader) is not v1= followed by the 64 hex digits of an HMAC-SHA256 of \"<timestamp>.<body>\" (vodapp-push send --secret signs so)"
            case .mismatch:
                "\(PushSignature.signatureHeader) does not match the timestamp and the body"
            }
        }
    }

    // Kept as bytes: swift-crypto 3's SymmetricKey is not Sendable, and making one is cheap.
    private let secret: [UInt8]

    public init(secret: String) {
        self.secret = Array(secret.utf8)
    }

    /// The code of `body` signed at `timestamp`.
    public func code(_ body: some DataProtocol, at timestamp: Int64) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: secret))
        hmac.update(data: Array("\(timestamp).".utf8))
        hmac.update(data: body)
        return Array(hmac.finalize())
    }

    /// The `X-VODApp-Signature` value of `body` signed at `timestamp`: `v1=` and the code in hex.
    public func sign(_ body: some DataProtocol, at timestamp: Int64) -> String {
        Self.prefix + WebhookSignature.hex(code(body, at: timestamp))
    }

    /// Checks a timestamp and a signature against `body` and the time `now` (Unix seconds).
    ///
    /// The timestamp is checked first: it alone refuses an old capture, before the body is read.
    /// The code comparison is swift-crypto's constant-time one.
    /// - Returns: the code, which the receiver remembers to refuse the same push again.
    public func verify(timestamp: String?, signature: String?, body: some DataProtocol, now: Int64) throws(Rejection) -> [UInt8] {
        let time = try Self.checkTime(timestamp, now: now)
        guard let signature else { throw .missing }
        guard signature.hasPrefix(Self.prefix),
              let code = WebhookSignature.bytes(fromHex: signature.dropFirst(Self.prefix.count)), code.count == SHA256.byteCount
        else { throw .malformedSignature }
        var message = Array("\(time).".utf8)
        message.append(contentsOf: body)
        guard HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: SymmetricKey(data: secret)) else {
            throw .mismatch
        }
        return code
    }

    /// The timestamp as a time within the window around `now`.
    public static func checkTime(_ timestamp: String?, now: Int64) throws(Rejection) -> Int64 {
        guard let timestamp else { throw .missing }
        // Digits only: "+5", " 5" or "5.0" would each sign a text the sender did not mean.
        guard !timestamp.isEmpty, timestamp.utf8.count <= 18, timestamp.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let time = Int64(timestamp)
        else { throw .malformedTimestamp }
        if now - time > tolerance { throw .tooOld(seconds: now - time) }
        if time - now > tolerance { throw .fromTheFuture(seconds: time - now) }
        return time
    }

    /// The current time in Unix seconds.
    public static func now() -> Int64 {
        Int64(Date().timeIntervalSince1970.rounded(.down))
    }
}
