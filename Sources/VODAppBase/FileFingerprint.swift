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
/// A body is digested as it streams to its file (`Running`), so placing it reads nothing back;
/// a file vodapp did not write itself (a mux's output) is read once when it is placed. Retention
/// reads each file it removes, not every file it counts.
package enum FileFingerprint {
    /// The bytes read at a time.
    static let chunkBytes = 1 << 20

    /// The SHA-256 of the regular file at `path` (not followed if a link), or nil if it cannot
    /// be read whole.
    package static func of(path: String) -> String? {
        guard let descriptor = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.noFollow, .closeOnExec])
        else { return nil }
        defer { try? descriptor.close() }
        return of(descriptor)
    }

    /// The SHA-256 of what `descriptor` reads from its start, or nil on a read error.
    package static func of(_ descriptor: FileDescriptor) -> String? {
        var running = Running()
        guard running.absorb(descriptor, upTo: .max) else { return nil }
        return running.finish()
    }

    /// A digest fed the bytes of a file in order, as they are written.
    package struct Running {
        private var hash = SHA256()
        /// How many bytes it has been fed.
        package private(set) var bytes: Int64 = 0

        package init() {}

        package mutating func update(_ chunk: UnsafeRawBufferPointer) {
            hash.update(bufferPointer: chunk)
            bytes += Int64(chunk.count)
        }

        /// Feeds it what `descriptor` reads from its start until `limit` bytes or the end: the
        /// bytes an earlier response kept, before a resumed body is appended. False on a read
        /// error or when the file ends before `limit` (unless `limit` is `.max`).
        package mutating func absorb(_ descriptor: FileDescriptor, upTo limit: Int64) -> Bool {
            // Nothing kept (every fresh body): no buffer, no read.
            guard bytes < limit else { return true }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 16)
            defer { buffer.deallocate() }
            while bytes < limit {
                let wanted = Int(min(Int64(buffer.count), limit - bytes))
                guard let count = try? descriptor.read(fromAbsoluteOffset: bytes, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
                else { return false }
                if count == 0 { return limit == .max }
                update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
            return true
        }

        /// The digest in hexadecimal, as the store keeps it.
        package func finish() -> String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(64)
            for byte in hash.finalize() {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
