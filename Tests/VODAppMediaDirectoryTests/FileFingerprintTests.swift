import Foundation
import Testing
import VODAppMediaDirectory

/// The fingerprint retention checks before removing a file: equal for equal bytes, different
/// when any byte differs, and none for what is not a readable regular file.
@Suite struct FileFingerprintTests {
    private func write(_ bytes: [UInt8], name: String) throws -> String {
        let path = NSTemporaryDirectory() + "vodapp-fingerprint-\(getpid())-\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func equalBytesAgreeAndAChangeAtTheStartMiddleOrEndDoesNot() throws {
        let size = 1_000_000
        let original = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let first = try write(original, name: "a")
        let copy = try write(original, name: "b")
        defer { for path in [first, copy] { unlink(path) } }
        let fingerprint = try #require(FileFingerprint.of(path: first))
        #expect(FileFingerprint.of(path: copy) == fingerprint)
        // Anywhere: the start, a place between any samples, the middle, the end.
        for offset in [0, 100_000, size / 2, size - 1] {
            var changed = original
            changed[offset] &+= 1
            let path = try write(changed, name: "changed-\(offset)")
            defer { unlink(path) }
            #expect(FileFingerprint.of(path: path) != fingerprint, "a change at \(offset)")
        }
    }

    @Test func aTrailingByteCounts() throws {
        let short = try write([1, 2, 3], name: "short")
        let longer = try write([1, 2, 3, 0], name: "longer")
        defer { for path in [short, longer] { unlink(path) } }
        #expect(FileFingerprint.of(path: short) != nil)
        #expect(FileFingerprint.of(path: short) != FileFingerprint.of(path: longer))
    }

    @Test func aLinkOrAMissingFileHasNone() throws {
        let target = try write([1, 2, 3], name: "target")
        let link = target + "-link"
        #expect(symlink(target, link) == 0)
        defer { for path in [target, link] { unlink(path) } }
        #expect(FileFingerprint.of(path: link) == nil)
        #expect(FileFingerprint.of(path: target + "-missing") == nil)
    }
}
