import Foundation

/// Writing to a descriptor until every byte is out: `write(2)` may take part of a buffer, and a
/// signal may interrupt it before it takes any.
package enum FileWriting {
    /// - Returns: false when a write failed; `errno` says why.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
