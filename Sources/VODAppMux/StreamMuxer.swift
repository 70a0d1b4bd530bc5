import CAVFormat
import Glibc
import VODAppBase

/// Remuxes a stream's parts into one MP4 with FFmpeg's libavformat: no decoding, the packets
/// copied as they are, `+faststart` so that a player starts before it has read the whole file.
///
/// - Each run (`MuxRun`) is demuxed afresh: a new init section or a discontinuity starts one.
///   Its timestamps are moved to follow the end of what was written before it, so that the file
///   plays as one timeline whatever each run's own clock said (MPEG-TS starts at 1.4 s, and a
///   discontinuity starts again anywhere).
/// - Only the first video and the first audio stream are kept (timed ID3 metadata and the like
///   are not for a file). The mp4 muxer converts what MPEG-TS carries on its own: ADTS AAC to raw
///   AAC, Annex B H.264 and HEVC to length-prefixed NAL units.
/// - The file is written through `/proc/self/fd/N`, the descriptor of a file the caller created
///   safely: `+faststart` reopens the output by name to move the index to the front, and that
///   name reaches the same file, whatever happens to its path meanwhile.
package enum StreamMuxer {
    /// The largest single block FFmpeg's libraries may allocate, once per process: 64 MiB, where
    /// FFmpeg allows 2 GiB. A demuxer's index is one array, which what a part's boxes claim sizes
    /// before a sample is read; `SampleCountBound` refuses the claims it can see, and this bounds
    /// those it cannot (the seventh and eighth attacker trials found three ways past a look at the
    /// boxes). 64 MiB holds the index of millions of samples: a long film has a few hundred
    /// thousand.
    private static let allocationLimit: Void = vod_av_max_alloc(64 << 20)

    /// What the mux made.
    package struct Made: Sendable, Equatable {
        package let bytes: Int64
        package let hasVideo: Bool
        package let hasAudio: Bool
        /// Where each track (in the order given) ends in the file, seconds: less than its
        /// playlist lists when a part the demuxer could not read ended it early.
        package var seconds: [Double] = []
        /// The media time, seconds, that is the file's zero: where a subtitle's
        /// `X-TIMESTAMP-MAP` puts a cue is moved back by it (`WebVTTJoiner`).
        package var start: Double = 0
    }

    /// Muxes `tracks` into the empty file open at `descriptor`: a variant's video and the audio
    /// of the rendition it is played with, their packets interleaved by time as a player reads
    /// them. The tracks start together, as their playlists do: the earliest first timestamp of
    /// any is the file's zero.
    /// - Parameters:
    ///   - maximumSize: the file may not be larger.
    ///   - shouldStop: asked at every packet; true stops the mux (`MuxFailure.Kind.stopped`).
    package static func mux(_ tracks: [MuxTrack], into descriptor: Int32, maximumSize: Int64,
                            shouldStop: @escaping () -> Bool = { false }) throws(MuxFailure) -> Made {
        try FFmpegLibraries.load()
        // FFmpeg's own lines go to the debug log (`FFmpegLog`); its errors come back as codes,
        // which `message(_:)` words.
        _ = FFmpegLog.routed
        _ = allocationLimit
        let url = "file:/proc/self/fd/\(descriptor)"
        // The output, and what `+faststart` opens to move the index to the front (a rewrite of the
        // whole file, in the trailer), are interrupted at the deadline too: a 560 MB stream's
        // trailer ran 2 s past the budget (sixth attacker trial).
        let check = StopCheck(shouldStop)
        var made: UnsafeMutablePointer<AVFormatContext>?
        guard vod_avformat_alloc_output_context2(&made, nil, "mp4", url) >= 0, let output = made else {
            throw MuxFailure(.passing, "libavformat has no MP4 muxer")
        }
        defer {
            if output.pointee.pb != nil { vod_avio_closep(&output.pointee.pb) }
            vod_avformat_free_context(output)
            // The callback's object outlives the context that calls it.
            withExtendedLifetime(check) {}
        }
        let interrupt = AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<StopCheck>.fromOpaque(opaque).takeUnretainedValue().shouldStop() ? 1 : 0
        }, opaque: Unmanaged.passUnretained(check).toOpaque())
        output.pointee.interrupt_callback = interrupt
        var callback = interrupt
        let opened = vod_avio_open2(&output.pointee.pb, url, vod_avio_flag_write(), &callback, nil)
        guard opened >= 0 else { throw MuxFailure(.passing, "cannot write the file: \(message(opened))") }

        var streams = MuxTrackInput.Streams()
        var inputs: [MuxTrackInput] = []
        for track in tracks {
            let input = MuxTrackInput(track, shouldStop: shouldStop)
            if try input.begin(into: output, streams: &streams) { inputs.append(input) }
        }
        guard !inputs.isEmpty else { throw MuxFailure(.unusable, "the stream has no parts") }
        var options: OpaquePointer?
        vod_av_dict_set(&options, "movflags", "+faststart", 0)
        let header = vod_avformat_write_header(output, &options)
        vod_av_dict_free(&options)
        guard header >= 0 else { throw MuxFailure(.unusable, "the stream cannot go into an MP4 file: \(message(header))") }
        streams.headerWritten = true
        let zero = inputs.compactMap(\.firstStart).min() ?? 0
        for input in inputs { input.shift = -zero }

        // One packet waiting from each track; the earliest goes first.
        var waiting: [UnsafeMutablePointer<AVPacket>?] = []
        defer { for index in waiting.indices { vod_av_packet_free(&waiting[index]) } }
        var has: [Bool] = []
        for input in inputs {
            guard let packet = vod_av_packet_alloc() else { throw MuxFailure(.passing, "out of memory") }
            waiting.append(packet)
            has.append(try input.next(packet, output: output, streams: &streams))
        }
        var lastDTS: [Int32: Int64] = [:]
        while let index = earliest(waiting, has: has, in: output) {
            if shouldStop() { throw MuxFailure(.stopped, "stopped while the file was made") }
            guard let packet = waiting[index] else { break }
            let target = packet.pointee.stream_index
            if packet.pointee.dts != vod_no_pts() {
                if let last = lastDTS[target], packet.pointee.dts <= last {
                    // Runs that overlap by a frame (a segment cut a little late): nudged on.
                    packet.pointee.dts = last + 1
                    if packet.pointee.pts != vod_no_pts() { packet.pointee.pts = max(packet.pointee.pts, packet.pointee.dts) }
                }
                lastDTS[target] = packet.pointee.dts
            }
            let status = vod_av_interleaved_write_frame(output, packet)
            guard status >= 0 else { throw MuxFailure(.passing, "cannot write the file: \(message(status))") }
            if vod_avio_tell(output.pointee.pb) > maximumSize {
                throw MuxFailure(.tooLarge, "the file passed \(maximumSize) bytes as it was made")
            }
            has[index] = try inputs[index].next(packet, output: output, streams: &streams)
        }
        let ended = vod_av_write_trailer(output)
        if ended < 0, shouldStop() { throw MuxFailure(.stopped, "stopped while the file was made") }
        guard ended >= 0 else { throw MuxFailure(.passing, "cannot finish the file: \(message(ended))") }
        vod_avio_flush(output.pointee.pb)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw MuxFailure(.passing, "cannot read the file's size: \(String(cString: strerror(errno)))") }
        let bytes = Int64(info.st_size)
        guard bytes <= maximumSize else { throw MuxFailure(.tooLarge, "the file is \(bytes) bytes") }
        return Made(bytes: bytes, hasVideo: streams.video != nil, hasAudio: streams.audio != nil,
                    seconds: inputs.map { Double($0.end ?? 0) / Double(AV_TIME_BASE) }, start: Double(zero) / Double(AV_TIME_BASE))
    }

    /// The track whose waiting packet comes first by its DTS (a packet without one goes at once),
    /// or nil when every track has ended.
    private static func earliest(_ waiting: [UnsafeMutablePointer<AVPacket>?], has: [Bool],
                                 in output: UnsafeMutablePointer<AVFormatContext>) -> Int? {
        var best: Int?
        for index in has.indices where has[index] {
            guard let packet = waiting[index], packet.pointee.dts != vod_no_pts() else { return index }
            guard let chosen = best, let other = waiting[chosen] else {
                best = index
                continue
            }
            let base = output.pointee.streams[Int(packet.pointee.stream_index)]!.pointee.time_base
            let otherBase = output.pointee.streams[Int(other.pointee.stream_index)]!.pointee.time_base
            if vod_av_compare_ts(packet.pointee.dts, base, other.pointee.dts, otherBase) < 0 { best = index }
        }
        return best
    }

    /// What libavformat's interrupt callback asks, held for as long as the output is open.
    private final class StopCheck {
        let shouldStop: () -> Bool
        init(_ shouldStop: @escaping () -> Bool) { self.shouldStop = shouldStop }
    }

    /// libavformat's words for an error code.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        vod_av_strerror(code, &buffer, buffer.count)
        return String(writtenInto: buffer)
    }
}
