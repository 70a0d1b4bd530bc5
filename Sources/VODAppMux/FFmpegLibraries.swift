import CAVFormat

/// FFmpeg's libraries, loaded at the first mux rather than linked: most runs mux nothing, and
/// linked they cost every start 27 ms and 28 MiB (`CAVFormat.h`).
enum FFmpegLibraries {
    /// Nil once loaded, else why they cannot be: the same answer for the whole process.
    private static let failure: String? = {
        var why = [CChar](repeating: 0, count: 512)
        guard vod_av_load(&why, why.count) != 0 else { return nil }
        return String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Loads them, or says why a stream cannot be muxed on this machine (passing: installing
    /// FFmpeg's libraries makes the next delivery's mux work).
    static func load() throws(MuxFailure) {
        if let failure {
            throw MuxFailure(.passing, "FFmpeg's libraries cannot be loaded (\(failure)); install libavformat59")
        }
    }
}
