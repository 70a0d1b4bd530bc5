/// FNV-1a, 64 bits: a fast, stable hash of a name, the same on every run and machine (Swift's
/// `Hasher` is seeded per process). Not for anything an attacker must not collide.
package enum FNV1a {
    package static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
