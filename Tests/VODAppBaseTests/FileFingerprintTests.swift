import Foundation
import Testing
import SystemPackage
import VODAppBase

/// The fingerprint retention checks before removing a file: equal for equal bytes, different
/// when any byte differs, and none for what is not a readable regular file; the same whether the
/// bytes were read back or digested as they were written, in whatever chunks, after a resume.
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

    @Test func itIsTheSHA256OfTheBytesInHexadecimal() throws {
        // FIPS 180-2's first example.
        let path = try write(Array("abc".utf8), name: "abc")
        defer { unlink(path) }
        #expect(FileFingerprint.of(path: path) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test(arguments: [0, 1, 4096, 1 << 20, (1 << 20) + 7, 2_999_999, 3_000_000])
    func aDigestFedAsTheBytesAreWrittenAgreesWithOneReadBack(keptBefore: Int) throws {
        let size = 3_000_000
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        // What an earlier response kept is read from the file; the rest arrives in chunks of
        // libcurl's sizes, uneven.
        var (path, running) = try resumed(bytes, name: "running-\(keptBefore)", kept: keptBefore)
        defer { unlink(path) }
        inUnevenChunks(bytes, from: keptBefore, largest: 65_537) { running.update($0) }
        #expect(running.bytes == Int64(size))
        #expect(running.finish() == FileFingerprint.of(path: path))
    }

    /// The same digest taken beside the writer (`DigestPipeline`), or in its calls on a single
    /// core: batches, the wait when the digest falls behind, and the kept bytes it continues from
    /// change nothing of it.
    @Test(arguments: [0, 1, (1 << 20) + 7, 3_000_000], [true, false])
    func aDigestTakenOnItsOwnQueueAgreesWithOneReadBack(keptBefore: Int, besideTheWriter: Bool) throws {
        let size = 3_000_000
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 7) }
        let (path, running) = try resumed(bytes, name: "pipeline-\(keptBefore)-\(besideTheWriter)", kept: keptBefore)
        defer { unlink(path) }
        let pipeline = DigestPipeline(continuing: running, besideTheWriter: besideTheWriter)
        inUnevenChunks(bytes, from: keptBefore, largest: 300_007) { pipeline.update($0) }
        let (digested, digest) = pipeline.finish()
        #expect(digested == Int64(size))
        #expect(digest == FileFingerprint.of(path: path))
    }

    /// Bodies around one batch: under it the writer digests them (in place when their length is
    /// declared, else as they end), with no queue; at it and past it they go to the queue. A
    /// declared length that is wrong changes only where the digest is taken. Either way, the
    /// file's digest.
    @Test(arguments: [1, 65_536, DigestPipeline.batchBytes - 1, DigestPipeline.batchBytes, DigestPipeline.batchBytes + 1],
          [nil, 0, 65_536, Int64(DigestPipeline.batchBytes), 1 << 30])
    func aBodyAroundOneBatchAgreesWithOneReadBack(size: Int, declared: Int64?) throws {
        let keptBefore = 1000
        let bytes = (0..<size + keptBefore).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let (path, running) = try resumed(bytes, name: "batch-\(size)-\(declared ?? -1)", kept: keptBefore)
        defer { unlink(path) }
        let pipeline = DigestPipeline(continuing: running, expectedBytes: declared, besideTheWriter: true)
        inUnevenChunks(bytes, from: keptBefore, largest: 70_001) { pipeline.update($0) }
        let (digested, digest) = pipeline.finish()
        #expect(digested == Int64(bytes.count))
        #expect(digest == FileFingerprint.of(path: path))
    }

    /// `bytes` written to a file, and a digest fed its first `kept` bytes read back from it, as a
    /// resume's kept bytes are.
    private func resumed(_ bytes: [UInt8], name: String, kept: Int) throws -> (path: String, running: FileFingerprint.Running) {
        let path = try write(bytes, name: name)
        let descriptor = try FileDescriptor.open(FilePath(path), .readOnly)
        defer { try? descriptor.close() }
        var running = FileFingerprint.Running()
        let absorbed = running.absorb(descriptor, upTo: Int64(kept))
        #expect(absorbed)
        return (path, running)
    }

    /// Hands `bytes` from `offset` on to `body` as libcurl hands a body over: in chunks of uneven
    /// sizes, up to `largest`.
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

    @Test func keptBytesShorterThanTheResumeSaysAreNotDigested() throws {
        let path = try write([1, 2, 3], name: "kept-short")
        defer { unlink(path) }
        let descriptor = try FileDescriptor.open(FilePath(path), .readOnly)
        defer { try? descriptor.close() }
        var running = FileFingerprint.Running()
        let kept = running.absorb(descriptor, upTo: 4)
        #expect(!kept)
    }
}
