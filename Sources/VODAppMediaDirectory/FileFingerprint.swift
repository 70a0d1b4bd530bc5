import Crypto
import Foundation
import SystemPackage

/// A digest of a file's bytes, taken when vodapp places the file and taken again just before
/// retention removes it. A file written over in place (`cp` onto the name keeps the inode, `dd
/// conv=notrunc` changes a few bytes) with the same size and its old time restored (`cp -p`,
/// `touch -d`) passes every check of the file's metadata; its bytes do not. All of them are read:
/// a sample leaves the rest of the file to be changed unseen. Reading is done once when the file
/// is placed (from the page cache, just written) and once for each file retention removes, not
/// for every file it counts.
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
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: chunkBytes)
        var offset: Int64 = 0
        while true {
            let count: Int? = buffer.withUnsafeMutableBytes { bytes in
                try? descriptor.read(fromAbsoluteOffset: offset, into: bytes)
            }
            guard let count else { return nil }
            if count == 0 { break }
            hash.update(data: buffer[..<count])
            offset += Int64(count)
        }
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
