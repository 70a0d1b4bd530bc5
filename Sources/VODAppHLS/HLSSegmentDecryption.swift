import VODAppModel
import _CryptoExtras
import Crypto
import Foundation

/// Undoes `#EXT-X-KEY:METHOD=AES-128` on one segment: AES-128-CBC over the whole segment with
/// PKCS7 padding (RFC 8216 §5.2), with the segment's `HLSKey.iv`.
public enum HLSSegmentDecryption {
    /// Why a segment could not be decrypted.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// What the key URL served is not a raw AES-128 key.
        case keyNotSixteenBytes(count: Int)
        case ivNotSixteenBytes(count: Int)
        /// The ciphertext is not a whole, non-zero number of 16-byte blocks: a truncated download,
        /// or a segment that was never encrypted.
        case notWholeBlocks(count: Int)
        /// The padding is wrong after decryption: almost always the wrong key or IV.
        case badPadding

        public var description: String {
            switch self {
            case .keyNotSixteenBytes(let count):
                "the key is not 16 bytes (the key URL served \(count) bytes)"
            case .ivNotSixteenBytes(let count):
                "the IV is not 16 bytes (it is \(count))"
            case .notWholeBlocks(let count):
                "the segment does not decrypt: \(count) bytes is not a whole number of 16-byte AES blocks (truncated, or not encrypted?)"
            case .badPadding:
                "the segment does not decrypt (wrong key?)"
            }
        }
    }

    /// The clear bytes of `ciphertext`, an AES-128 segment encrypted with `key` and `iv`.
    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 16 else { throw .keyNotSixteenBytes(count: key.count) }
        guard iv.count == 16 else { throw .ivNotSixteenBytes(count: iv.count) }
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else { throw .notWholeBlocks(count: ciphertext.count) }
        var clear: [UInt8]
        do {
            // noPadding, and PKCS7's padding (1 to 16 bytes) checked below: swift-crypto's own
            // check accepts up to 255. A wrong key still ends in valid-looking padding about one
            // time in 256 (a last byte of 1): the padding is a hint, not a proof.
            clear = try [UInt8](AES._CBC.decrypt(ciphertext, using: SymmetricKey(data: key),
                                                 iv: AES._CBC.IV(ivBytes: iv), noPadding: true))
        } catch {
            // The sizes were checked above, so this is not expected; a wrong key is the likely cause.
            throw .badPadding
        }
        guard let padding = clear.last, (1...16).contains(padding),
              clear.suffix(Int(padding)).allSatisfy({ $0 == padding }) else {
            throw .badPadding
        }
        clear.removeLast(Int(padding))
        return clear
    }
}
