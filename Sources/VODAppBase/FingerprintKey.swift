import Crypto

/// The secret of one DIR's store under which vodapp fingerprints the files it places
/// (`FileFingerprint`): 16 random bytes, made once with the store and kept in it, in the work
/// area only the user can reach.
///
/// Nobody who cannot read the store knows it, so nobody can choose bytes that fingerprint as
/// another file's: a server that serves an item cannot make it match what the user later
/// writes at its name. Whoever can read the store can also forge its records, which claim a
/// file whatever its fingerprint says; so the key asks for no more protection than the store.
package struct FingerprintKey: Sendable, Equatable {
    package static let byteCount = 16

    /// Its bytes, as the store keeps them.
    package let bytes: [UInt8]

    /// The key of `bytes`, or nil when they are not `byteCount` long.
    package init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = Array(bytes)
    }

    /// A new key from the system's random source.
    package static func random() -> FingerprintKey {
        var generator = SystemRandomNumberGenerator()
        // 16 bytes long, so never nil.
        return FingerprintKey(bytes: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })!
    }

    /// The AES-128 key of the fingerprint's GMAC.
    var symmetricKey: SymmetricKey {
        SymmetricKey(data: bytes)
    }
}
