import Crypto
import Foundation

/// The `X-Hub-Signature-256` scheme that GitHub, adnanh/webhook and many webhook senders use:
/// `sha256=` followed by the hex HMAC-SHA256 of the raw request body under a shared secret.
///
/// It covers the body alone, so a captured request is valid for ever: `vodapp listen` does not
/// accept it (it takes `PushSignature`'s timestamped form). It is what adnanh/webhook checks
/// before it runs `vodapp` (Examples/webhook), and `vodapp-push send --secret` adds it for that
/// route, whose host owns the replay question.
public struct WebhookSignature: Sendable {
    public static let headerName = "X-Hub-Signature-256"
    static let prefix = "sha256="

    // Kept as bytes: swift-crypto 3's SymmetricKey is not Sendable, and making one is cheap.
    private let secret: [UInt8]

    public init(secret: String) {
        self.secret = Array(secret.utf8)
    }

    private var key: SymmetricKey { SymmetricKey(data: secret) }

    /// The header value that signs `body`.
    public func sign(_ body: some DataProtocol) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: key)
        return Self.prefix + Self.hex(code)
    }

    /// Whether `header` is a valid signature of `body`.
    ///
    /// The comparison is swift-crypto's constant-time one, so an attacker cannot learn the code
    /// byte by byte from response times. A header that is absent, lacks the prefix or is not hex
    /// is simply invalid.
    public func verifies(_ header: String?, for body: some DataProtocol) -> Bool {
        guard let header, header.hasPrefix(Self.prefix),
              let code = Self.bytes(fromHex: header.dropFirst(Self.prefix.count)),
              code.count == SHA256.byteCount
        else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: body, using: key)
    }

    package static func bytes(fromHex hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
