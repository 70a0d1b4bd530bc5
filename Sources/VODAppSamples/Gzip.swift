import CZlib

/// gzip through zlib, for the fault of a server encoding a body nobody asked it to encode.
enum Gzip {
    /// The gzip member of `bytes`, compressed for real, so that the client's decoder meets the
    /// deflate data a server would send.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard vod_deflate_init_gzip(&stream) == Z_OK else { return [] }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination -> Int in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = uInt(destination.count)
                // The output holds deflateBound's worst case, so one call finishes the stream.
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { return 0 }
                return Int(stream.total_out)
            }
        }
        return Array(output.prefix(produced))
    }
}
