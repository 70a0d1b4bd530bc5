/// A gzip member whose deflate data is stored blocks: a valid `Content-Encoding: gzip` body that
/// needs no compressor, for the fault of a server encoding a body nobody asked it to.
enum GzipStored {
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        // Header: magic, deflate, no flags, no mtime, no extra flags, OS "unknown".
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let final: UInt8 = offset + count == bytes.count ? 1 : 0
            out.append(final)  // BTYPE 00 (stored), BFINAL as given
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        out += littleEndian(crc32(bytes)) + littleEndian(UInt32(truncatingIfNeeded: bytes.count))
        return out
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
