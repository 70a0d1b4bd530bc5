import Crypto
import Foundation
import SystemPackage

/// A digest of a sample of a file's bytes, taken when vodapp places the file and taken again
/// before retention removes it. A file written over in place (`cp` onto the name keeps the inode)
/// with the same size and an old time (`cp -p`, `touch -d`) passes every check of the file's
/// metadata; its bytes do not. Sampling (the start, the middle and the end) keeps the cost of a
/// check to a few hundred KiB whatever the file's size; two videos of one size agree on all three
/// samples no more than two copies of one video do.
package enum FileFingerprint {
    /// The bytes read at each of the three places.
    static let sampleBytes = 64 * 1024

    /// The fingerprint of the regular file at `path` (not followed if a link), or nil if it
    /// cannot be read.
    package static func of(path: String) -> String? {
        guard let descriptor = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.noFollow, .closeOnExec])
        else { return nil }
        defer { try? descriptor.close() }
        guard let size = try? descriptor.seek(offset: 0, from: .end) else { return nil }
        var hash = SHA256()
        withUnsafeBytes(of: size.littleEndian) { hash.update(bufferPointer: $0) }
        let sample = Int64(sampleBytes)
        // Where the samples start: all of a small file once, else its start, middle and end.
        let starts: [Int64] = size <= 3 * sample ? [0] : [0, size / 2 - sample / 2, size - sample]
        var buffer = [UInt8](repeating: 0, count: size <= 3 * sample ? Int(size) : sampleBytes)
        for start in starts {
            let read: Int? = buffer.withUnsafeMutableBytes { bytes in
                var done = 0
                while done < bytes.count {
                    guard let count = try? descriptor.read(fromAbsoluteOffset: start + Int64(done),
                                                           into: UnsafeMutableRawBufferPointer(rebasing: bytes[done...])),
                          count > 0 else { return nil }
                    done += count
                }
                return done
            }
            guard read != nil else { return nil }
            hash.update(data: buffer)
        }
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
