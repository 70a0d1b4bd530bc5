import CAVFormat
import Glibc

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
    /// libavformat's own log is silenced once per process: its errors come back as codes, which
    /// `message(_:)` words.
    private static let quietLog: Void = av_log_set_level(AV_LOG_QUIET)

    /// What the mux made.
    package struct Made: Sendable, Equatable {
        package let bytes: Int64
        package let hasVideo: Bool
        package let hasAudio: Bool
    }

    /// Muxes `runs` into the empty file open at `descriptor`.
    /// - Parameters:
    ///   - maximumSize: the file may not be larger.
    ///   - shouldStop: asked at every packet; true stops the mux (`MuxFailure.Kind.stopped`).
    package static func mux(_ runs: [MuxRun], into descriptor: Int32, maximumSize: Int64,
                            shouldStop: @escaping () -> Bool = { false }) throws(MuxFailure) -> Made {
        _ = quietLog
        let url = "file:/proc/self/fd/\(descriptor)"
        var made: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&made, nil, "mp4", url) >= 0, let output = made else {
            throw MuxFailure(.passing, "libavformat has no MP4 muxer")
        }
        defer {
            if output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
            avformat_free_context(output)
        }
        let opened = avio_open(&output.pointee.pb, url, vod_avio_flag_write())
        guard opened >= 0 else { throw MuxFailure(.passing, "cannot write the file: \(message(opened))") }

        var state = State()
        for (number, run) in runs.enumerated() {
            try mux(run, number: number, of: runs.count, into: output, state: &state, maximumSize: maximumSize, shouldStop: shouldStop)
        }
        guard state.headerWritten else { throw MuxFailure(.unusable, "the stream has no parts") }
        let ended = av_write_trailer(output)
        guard ended >= 0 else { throw MuxFailure(.passing, "cannot finish the file: \(message(ended))") }
        avio_flush(output.pointee.pb)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw MuxFailure(.passing, "cannot read the file's size: \(String(cString: strerror(errno)))") }
        let bytes = Int64(info.st_size)
        guard bytes <= maximumSize else { throw MuxFailure(.tooLarge, "the file is \(bytes) bytes") }
        return Made(bytes: bytes, hasVideo: state.video != nil, hasAudio: state.audio != nil)
    }

    /// What the runs written so far leave for the next one.
    private struct State {
        var headerWritten = false
        /// The output's streams, by index.
        var video: Int32?
        var audio: Int32?
        var codecs: [Int32: AVCodecID] = [:]
        /// Where each output stream ends, in `AV_TIME_BASE` units: the next run starts after it.
        var ends: [Int32: Int64] = [:]
        /// Each output stream's last DTS, in its own time base: the muxer refuses one that does
        /// not increase.
        var lastDTS: [Int32: Int64] = [:]
    }

    private static func mux(_ run: MuxRun, number: Int, of count: Int, into output: UnsafeMutablePointer<AVFormatContext>,
                            state: inout State, maximumSize: Int64, shouldStop: @escaping () -> Bool) throws(MuxFailure) {
        let which = count == 1 ? "the stream" : "part \(number + 1) of \(count) of the stream"
        let reader = PartReader(run, shouldStop: shouldStop)
        guard let context = reader.context() else { throw MuxFailure(.passing, "out of memory") }
        var io: UnsafeMutablePointer<AVIOContext>? = context
        defer {
            av_freep(&context.pointee.buffer)
            avio_context_free(&io)
        }
        var made = avformat_alloc_context()
        guard let demuxer = made else { throw MuxFailure(.passing, "out of memory") }
        demuxer.pointee.pb = context
        demuxer.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // Before the context above is freed: the demuxer reads through it to the end.
        defer { avformat_close_input(&made) }
        var status = avformat_open_input(&made, nil, nil, nil)
        guard status >= 0, let input = made else {
            throw reader.failure ?? MuxFailure(.unusable, "\(which) cannot be read: \(message(status))")
        }
        status = avformat_find_stream_info(input, nil)
        guard status >= 0 else { throw reader.failure ?? MuxFailure(.unusable, "\(which) cannot be read: \(message(status))") }

        // Input stream index to output stream index.
        var map: [Int32: Int32] = [:]
        for type in [AVMEDIA_TYPE_VIDEO, AVMEDIA_TYPE_AUDIO] {
            let found = av_find_best_stream(input, type, -1, -1, nil, 0)
            guard found >= 0, let stream = input.pointee.streams[Int(found)] else { continue }
            let codec = stream.pointee.codecpar.pointee.codec_id
            let existing = type == AVMEDIA_TYPE_VIDEO ? state.video : state.audio
            if let existing {
                guard state.codecs[existing] == codec else {
                    throw MuxFailure(.unusable, "\(which) changes its \(type == AVMEDIA_TYPE_VIDEO ? "video" : "audio") codec, which one file cannot hold")
                }
                map[found] = existing
            } else if !state.headerWritten {
                guard let added = avformat_new_stream(output, nil) else { throw MuxFailure(.passing, "out of memory") }
                guard avcodec_parameters_copy(added.pointee.codecpar, stream.pointee.codecpar) >= 0 else {
                    throw MuxFailure(.passing, "out of memory")
                }
                added.pointee.codecpar.pointee.codec_tag = 0
                added.pointee.time_base = stream.pointee.time_base
                map[found] = added.pointee.index
                state.codecs[added.pointee.index] = codec
                if type == AVMEDIA_TYPE_VIDEO { state.video = added.pointee.index } else { state.audio = added.pointee.index }
            }
        }
        if !state.headerWritten {
            guard !map.isEmpty else { throw MuxFailure(.unusable, "\(which) holds neither video nor audio") }
            var options: OpaquePointer?
            av_dict_set(&options, "movflags", "+faststart", 0)
            status = avformat_write_header(output, &options)
            av_dict_free(&options)
            guard status >= 0 else { throw MuxFailure(.unusable, "\(which) cannot go into an MP4 file: \(message(status))") }
            state.headerWritten = true
        }

        // This run starts where the file so far ends.
        let start = input.pointee.start_time == vod_no_pts() ? 0 : input.pointee.start_time
        let shift = (state.ends.values.max() ?? 0) - start
        guard let packet = av_packet_alloc() else { throw MuxFailure(.passing, "out of memory") }
        var freed: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&freed) }
        while true {
            if shouldStop() { throw MuxFailure(.stopped, "stopped while the file was made") }
            status = av_read_frame(input, packet)
            if status == vod_averror_eof() { break }
            guard status >= 0 else { throw reader.failure ?? MuxFailure(.unusable, "\(which) cannot be read: \(message(status))") }
            guard let target = map[packet.pointee.stream_index], let source = input.pointee.streams[Int(packet.pointee.stream_index)],
                  let destination = output.pointee.streams[Int(target)] else {
                av_packet_unref(packet)
                continue
            }
            let sourceBase = source.pointee.time_base
            let offset = av_rescale_q(shift, vod_time_base_q(), sourceBase)
            if packet.pointee.pts != vod_no_pts() { packet.pointee.pts += offset }
            if packet.pointee.dts != vod_no_pts() { packet.pointee.dts += offset }
            av_packet_rescale_ts(packet, sourceBase, destination.pointee.time_base)
            packet.pointee.stream_index = target
            packet.pointee.pos = -1
            if packet.pointee.dts != vod_no_pts() {
                if let last = state.lastDTS[target], packet.pointee.dts <= last {
                    // Runs that overlap by a frame (a segment cut a little late): nudged on.
                    packet.pointee.dts = last + 1
                    if packet.pointee.pts != vod_no_pts() { packet.pointee.pts = max(packet.pointee.pts, packet.pointee.dts) }
                }
                state.lastDTS[target] = packet.pointee.dts
            }
            let at = packet.pointee.pts != vod_no_pts() ? packet.pointee.pts : packet.pointee.dts
            if at != vod_no_pts() {
                let end = av_rescale_q(at + packet.pointee.duration, destination.pointee.time_base, vod_time_base_q())
                state.ends[target] = max(state.ends[target] ?? end, end)
            }
            status = av_interleaved_write_frame(output, packet)
            guard status >= 0 else { throw MuxFailure(.passing, "cannot write the file: \(message(status))") }
            if avio_tell(output.pointee.pb) > maximumSize {
                throw MuxFailure(.tooLarge, "the file passed \(maximumSize) bytes as it was made")
            }
        }
        if let failure = reader.failure { throw failure }
    }

    /// libavformat's words for an error code.
    private static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
