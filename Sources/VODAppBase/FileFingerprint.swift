import Crypto
import SystemPackage

/// A digest of a file's bytes, taken as vodapp writes the file and taken again just before
/// retention removes it. A file written over in place (`cp` onto the name keeps the inode, `dd
/// conv=notrunc` changes a few bytes) with the same size and its old time restored (`cp -p`,
/// `touch -d`) passes every check of the file's metadata; its bytes do not. All of them are
/// digested: a sample leaves the rest of the file to be changed unseen.
///
/// Not the file's status-change time, which would cost nothing: an edit written through
/// `fdatasync` or `O_DIRECT` reaches the disk before its new times do, and after a power cut in
/// between (5 s on ext4, longer on XFS) the file comes back with the edited bytes and the old
/// change time, inode, size and modification time. Tried, and taken back: the attacker trial
/// made retention remove such an edit.
///
/// The fingerprint is a GMAC (AES-128-GCM authenticating the bytes, encrypting nothing) of each
/// 128 KiB block under the store's secret (`FingerprintKey`), the block's number as its nonce,
/// and the SHA-256 of those tags and the length: `k1:` and 64 hex digits. A GMAC tag is the
/// block's GHASH, a polynomial in a secret point, masked: two different blocks agree under at
/// most one key in 2^115, and nobody without the key can choose them so. It costs a seventh of
/// SHA-256 of every byte (15.5 GB/s against 2.1 with this machine's AES and carry-less multiply
/// instructions), which was most of vodapp's CPU on large files. The nonce repeats from file to
/// file, which would let whoever saw two tags solve for the point; the tags never leave the
/// digest, and their SHA-256 gives none away.
///
/// Without a key (a delivery that could not read its store) the fingerprint is the SHA-256 of
/// the bytes, 64 hex digits, as every fingerprint vodapp recorded before the key; those are
/// checked as they were taken.
///
/// A file is read once when it is placed (`MediaDirectory.place`), from the page cache, on the
/// thread that fsynced it: under the key that costs less than digesting a body on the transfer
/// thread as it streamed in, where all the transfers wait for it. Retention reads each file it
/// removes, not every file it counts.
package enum FileFingerprint {
    /// The bytes of each GMAC: a fixed grid from the file's start, however the bytes arrive. A
    /// file is read a block at a time: files are read on the syncer's 16 threads at once, and a
    /// mebibyte each was 16 MiB of a delivery's peak memory.
    package static let blockBytes = 128 * 1024
    /// What a keyed fingerprint starts with.
    static let keyedPrefix = "k1:"

    /// The fingerprint of the regular file at `path` (not followed if a link), or nil if it
    /// cannot be read whole.
    package static func of(path: String, key: FingerprintKey?) -> String? {
        guard let descriptor = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.noFollow, .closeOnExec])
        else { return nil }
        defer { try? descriptor.close() }
        return of(descriptor, key: key)
    }

    /// The fingerprint of what `descriptor` reads from its start, or nil on a read error.
    package static func of(_ descriptor: FileDescriptor, key: FingerprintKey?) -> String? {
        var running = Running(key: key)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockBytes, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            guard let count = try? descriptor.read(fromAbsoluteOffset: running.bytes, into: buffer) else { return nil }
            if count == 0 { return running.finish() }
            running.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Whether what `descriptor` reads from its start has the fingerprint `recorded`, taken the
    /// way it was: under `key` for a keyed one (never, without the key), else as SHA-256.
    package static func matches(_ descriptor: FileDescriptor, _ recorded: String, key: FingerprintKey?) -> Bool {
        if recorded.hasPrefix(keyedPrefix) {
            guard let key else { return false }
            return of(descriptor, key: key) == recorded
        }
        return of(descriptor, key: nil) == recorded
    }

    /// A digest fed the bytes of a file in order.
    package struct Running {
        /// The GMAC key; nil for SHA-256 of the bytes.
        private let key: SymmetricKey?
        /// The SHA-256 of the bytes without a key; with one, of the blocks' tags and the length.
        private var hash = SHA256()
        /// With a key: the bytes of the block not yet full.
        private var pending: [UInt8] = []
        /// How many bytes it has been fed.
        package private(set) var bytes: Int64 = 0

        package init(key: FingerprintKey?) {
            self.key = key?.symmetricKey
        }

        package mutating func update(_ chunk: UnsafeRawBufferPointer) {
            defer { bytes += Int64(chunk.count) }
            guard let key else { return hash.update(bufferPointer: chunk) }
            let blockBytes = FileFingerprint.blockBytes
            var rest = chunk
            var done = bytes
            if !pending.isEmpty {
                let wanted = min(blockBytes - pending.count, rest.count)
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<wanted]))
                rest = UnsafeRawBufferPointer(rebasing: rest[wanted...])
                done += Int64(wanted)
                guard pending.count == blockBytes else { return }
                pending.withUnsafeBytes { Self.tag($0, endingAt: done, key: key, into: &hash) }
                pending.removeAll(keepingCapacity: true)
            }
            // Whole blocks straight from the caller's bytes, uncopied.
            while rest.count >= blockBytes {
                done += Int64(blockBytes)
                Self.tag(UnsafeRawBufferPointer(rebasing: rest[..<blockBytes]), endingAt: done, key: key, into: &hash)
                rest = UnsafeRawBufferPointer(rebasing: rest[blockBytes...])
            }
            pending.append(contentsOf: rest)
        }

        /// Feeds `tags` the GMAC of `block`, which ends `end` bytes into the file: its nonce is
        /// the block's number.
        private static func tag(_ block: UnsafeRawBufferPointer, endingAt end: Int64, key: SymmetricKey, into tags: inout SHA256) {
            let number = UInt64(end - Int64(block.count)) / UInt64(FileFingerprint.blockBytes)
            var nonce = [UInt8](repeating: 0, count: 12)
            withUnsafeBytes(of: number.bigEndian) { nonce.replaceSubrange(4..<12, with: $0) }
            // Twelve bytes is AES-GCM's nonce size, and sealing nothing cannot fail otherwise.
            guard let sealed = try? AES.GCM.seal([UInt8](), using: key, nonce: AES.GCM.Nonce(data: nonce), authenticating: block)
            else { preconditionFailure("AES-GCM refused a 12-byte nonce") }
            sealed.tag.withUnsafeBytes { tags.update(bufferPointer: $0) }
        }

        /// The fingerprint, as the store keeps it.
        package func finish() -> String {
            guard let key else { return Self.hex(hash.finalize()) }
            var tags = hash
            if !pending.isEmpty {
                pending.withUnsafeBytes { Self.tag($0, endingAt: bytes, key: key, into: &tags) }
            }
            withUnsafeBytes(of: UInt64(bytes).littleEndian) { tags.update(bufferPointer: $0) }
            return FileFingerprint.keyedPrefix + Self.hex(tags.finalize())
        }

        private static func hex(_ digest: SHA256.Digest) -> String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(64)
            for byte in digest {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
