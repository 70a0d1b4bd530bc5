import Crypto
import Foundation
import Testing
import SystemPackage
import VODAppBase

/// The fingerprint retention checks before removing a file: equal for equal bytes, different
/// when any byte differs, and none for what is not a readable regular file; the same whether the
/// bytes were read back or fed in whatever chunks; keyed by the store's secret, or SHA-256
/// without one, and checked the way it was taken.
@Suite struct FileFingerprintTests {
    private func write(_ bytes: [UInt8], name: String) throws -> String {
        // Unique to the call: a parameterized test's cases run at once, and would write over
        // each other's files of the same name.
        let path = NSTemporaryDirectory() + "vodapp-fingerprint-\(getpid())-\(UUID().uuidString)-\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static let key = FingerprintKey(bytes: Array(0..<16))!
    private static let block = FileFingerprint.blockBytes

    @Test(arguments: [nil, key])
    func equalBytesAgreeAndAChangeAnywhereDoesNot(key: FingerprintKey?) throws {
        let size = 1_000_000
        let original = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let first = try write(original, name: "a")
        let copy = try write(original, name: "b")
        defer { for path in [first, copy] { unlink(path) } }
        let fingerprint = try #require(FileFingerprint.of(path: first, key: key))
        #expect(FileFingerprint.of(path: copy, key: key) == fingerprint)
        // Anywhere: the start, either side of a block's edge, the middle, the end.
        for offset in [0, Self.block - 1, Self.block, size / 2, size - 1] {
            var changed = original
            changed[offset] &+= 1
            let path = try write(changed, name: "changed-\(offset)")
            defer { unlink(path) }
            #expect(FileFingerprint.of(path: path, key: key) != fingerprint, "a change at \(offset)")
        }
    }

    /// A zero more, at the end of a short file or of a whole block, is another file; so are two
    /// blocks in the other order.
    @Test(arguments: [nil, key])
    func aTrailingByteOrTheOrderOfBlocksCounts(key: FingerprintKey?) throws {
        let one = (0..<Self.block).map { UInt8(truncatingIfNeeded: $0 &* 3 &+ 1) }
        let two = (0..<Self.block).map { UInt8(truncatingIfNeeded: $0 &* 5 &+ 2) }
        let files: [[UInt8]] = [[1, 2, 3], [1, 2, 3, 0], one, one + [0], one + two, two + one]
        let fingerprints = try files.enumerated().map { index, bytes in
            let path = try write(bytes, name: "trailing-\(index)")
            defer { unlink(path) }
            return try #require(FileFingerprint.of(path: path, key: key))
        }
        #expect(Set(fingerprints).count == files.count, "\(fingerprints)")
    }

    @Test func aLinkOrAMissingFileHasNone() throws {
        let target = try write([1, 2, 3], name: "target")
        let link = target + "-link"
        #expect(symlink(target, link) == 0)
        defer { for path in [target, link] { unlink(path) } }
        #expect(FileFingerprint.of(path: link, key: Self.key) == nil)
        #expect(FileFingerprint.of(path: target + "-missing", key: Self.key) == nil)
    }

    @Test func withoutAKeyItIsTheSHA256OfTheBytesInHexadecimal() throws {
        // FIPS 180-2's first example.
        let path = try write(Array("abc".utf8), name: "abc")
        defer { unlink(path) }
        #expect(FileFingerprint.of(path: path, key: nil) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// What a keyed fingerprint is, built here from swift-crypto's AES-GCM and SHA-256 as its
    /// documentation says: the tag of each block, sealing nothing and authenticating the block,
    /// its number the last eight bytes of the nonce; then the SHA-256 of the tags and the length.
    @Test(arguments: [0, 1, block, 2 * block + 12_345])
    func aKeyedFingerprintIsTheSHA256OfEachBlocksGMAC(size: Int) throws {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ $0 >> 8) }
        let path = try write(bytes, name: "gmac-\(size)")
        defer { unlink(path) }
        var tags = SHA256()
        for (number, start) in stride(from: 0, to: size, by: Self.block).enumerated() {
            let nonce = [UInt8](repeating: 0, count: 4) + withUnsafeBytes(of: UInt64(number).bigEndian, Array.init)
            let sealed = try AES.GCM.seal([UInt8](), using: SymmetricKey(data: Self.key.bytes), nonce: AES.GCM.Nonce(data: nonce),
                                          authenticating: bytes[start..<min(size, start + Self.block)])
            tags.update(data: sealed.tag)
        }
        tags.update(data: withUnsafeBytes(of: UInt64(size).littleEndian, Array.init))
        let expected = "k1:" + tags.finalize().map { String(format: "%02x", $0) }.joined()
        #expect(FileFingerprint.of(path: path, key: Self.key) == expected)
    }

    /// The fingerprint of a file placed by this version must be the same in every later one:
    /// retention keeps a file whose fingerprint no longer matches, for ever. So a known answer,
    /// taken when the format was made (key 00 01 … 0f, the bytes "abc") and checked with OpenSSL
    /// through Python's `cryptography`: `sha256(AESGCM(key).encrypt(bytes(12), b"", b"abc")
    /// + (3).to_bytes(8, "little"))`.
    @Test func aKeyedFingerprintKeepsItsFormat() throws {
        let path = try write(Array("abc".utf8), name: "known")
        defer { unlink(path) }
        #expect(FileFingerprint.of(path: path, key: Self.key) == Self.knownAnswer)
    }

    static let knownAnswer = "k1:7d0bca1656da472e1c82417f286e0436fbd949b4bed8113b9a42a559c177d78c"

    @Test func anotherKeyGivesAnotherFingerprint() throws {
        let path = try write(Array(repeating: 7, count: 300_000), name: "keys")
        defer { unlink(path) }
        let mine = try #require(FileFingerprint.of(path: path, key: Self.key))
        #expect(mine.hasPrefix("k1:") && mine.count == 67)
        #expect(FileFingerprint.of(path: path, key: FingerprintKey.random()) != mine)
        #expect(FileFingerprint.of(path: path, key: nil) != mine)
    }

    /// A fingerprint is checked the way it was taken: a SHA-256 one (recorded before the store
    /// had a key) with or without a key; a keyed one under its own key only.
    @Test func aRecordedFingerprintIsCheckedTheWayItWasTaken() throws {
        let path = try write(Array(repeating: 9, count: 200_000), name: "matches")
        defer { unlink(path) }
        let descriptor = try FileDescriptor.open(FilePath(path), .readOnly)
        defer { try? descriptor.close() }
        let plain = try #require(FileFingerprint.of(descriptor, key: nil))
        let keyed = try #require(FileFingerprint.of(descriptor, key: Self.key))
        #expect(FileFingerprint.matches(descriptor, plain, key: nil))
        #expect(FileFingerprint.matches(descriptor, plain, key: Self.key))
        #expect(FileFingerprint.matches(descriptor, keyed, key: Self.key))
        #expect(!FileFingerprint.matches(descriptor, keyed, key: nil))
        #expect(!FileFingerprint.matches(descriptor, keyed, key: FingerprintKey.random()))
        #expect(!FileFingerprint.matches(descriptor, "k1:" + plain, key: Self.key))
    }

    @Test func aKeyIsSixteenBytes() {
        #expect(FingerprintKey(bytes: Array(repeating: 1, count: 15)) == nil)
        #expect(FingerprintKey(bytes: Array(repeating: 1, count: 17)) == nil)
        #expect(FingerprintKey.random().bytes.count == 16)
        #expect(FingerprintKey.random() != FingerprintKey.random())
    }

    /// Fed in uneven chunks, some of them more than a block, after a first piece of any length
    /// (from nothing, either side of a block's edge, to all of it): the fingerprint of the file
    /// read whole.
    @Test(arguments: [nil, key], [0, 1, block - 1, block, block + 1, (1 << 20) + 7, 2_999_999, 3_000_000])
    func aDigestFedInAnyChunksAgreesWithOneReadBack(key: FingerprintKey?, first: Int) throws {
        let size = 3_000_000
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let path = try write(bytes, name: "running")
        defer { unlink(path) }
        var running = FileFingerprint.Running(key: key)
        bytes[..<first].withUnsafeBytes { running.update($0) }
        inUnevenChunks(bytes, from: first, largest: 300_007) { running.update($0) }
        #expect(running.bytes == Int64(size))
        #expect(running.finish() == FileFingerprint.of(path: path, key: key))
    }

    /// Hands `bytes` from `offset` on to `body` in chunks of uneven sizes, up to `largest`.
    private func inUnevenChunks(_ bytes: [UInt8], from offset: Int, largest: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        var offset = offset
        var chunk = 1
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            bytes[offset..<end].withUnsafeBytes(body)
            offset = end
            chunk = chunk * 3 % largest + 1
        }
    }
}
