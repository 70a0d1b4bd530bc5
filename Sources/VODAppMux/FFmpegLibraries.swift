import CAVFormat
import VODAppBase

/// FFmpeg's libraries, loaded at the first mux rather than linked: most runs mux nothing, and
/// linked they cost every start 27 ms and 28 MiB (`CAVFormat.h`).
enum FFmpegLibraries {
    /// Nil once loaded, else why they cannot be: the same answer for the whole process.
    private static let failure = String(failureOf: { vod_av_load($0, $1) })

    /// Loads them, or says why a stream cannot be muxed on this machine (passing: installing
    /// FFmpeg's libraries makes the next delivery's mux work).
    static func load() throws(MuxFailure) {
        if let failure {
            throw MuxFailure(.passing, "FFmpeg's libraries cannot be loaded (\(failure)); install libavformat59")
        }
    }
}
