import CAVFormat
import VODAppModel

/// A track as the muxer reads it: its runs demuxed one after another, each packet moved onto
/// the file's timeline and into the time base of the file's stream it goes to.
///
/// Holds libavformat's demuxer of the current run, and frees it: not Sendable, used on the thread
/// that muxes.
final class MuxTrackInput {
    /// The file's streams, shared by the tracks: which is video, which audio, and their codecs.
    struct Streams {
        var headerWritten = false
        var video: Int32?
        var audio: Int32?
        var codecs: [Int32: AVCodecID] = [:]
    }

    private let track: MuxTrack
    private let shouldStop: () -> Bool
    private var runIndex = -1
    private var reader: PartReader?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var demuxer: UnsafeMutablePointer<AVFormatContext>?
    /// The current run's stream index to the file's.
    private var map: [Int32: Int32] = [:]
    /// Added to the current run's timestamps, in `AV_TIME_BASE` units.
    var shift: Int64 = 0
    /// Where each of the file's streams this track writes ends, in `AV_TIME_BASE` units: a
    /// run after a discontinuity starts there.
    private var ends: [Int32: Int64] = [:]

    init(_ track: MuxTrack, shouldStop: @escaping () -> Bool) {
        self.track = track
        self.shouldStop = shouldStop
    }

    deinit {
        close()
    }

    /// Where what the track wrote ends on the file's timeline, in `AV_TIME_BASE` units; nil
    /// before a packet.
    var end: Int64? { ends.values.max() }

    /// The first run's start, in `AV_TIME_BASE` units, once `begin` has opened it.
    private(set) var firstStart: Int64?

    /// Opens the first run and adds the streams it brings to `output` (the header is not written
    /// yet). Returns whether the track has anything to read.
    func begin(into output: UnsafeMutablePointer<AVFormatContext>, streams: inout Streams) throws(MuxFailure) -> Bool {
        guard !track.runs.isEmpty else { return false }
        let start = try openRun(0, into: output, streams: &streams)
        guard !map.isEmpty else {
            throw MuxFailure(.unusable, "\(which) holds \(track.takesVideo ? (track.takesAudio ? "neither video nor audio" : "no video") : "no audio")")
        }
        firstStart = start
        return true
    }

    /// Reads the track's next packet into `packet`, on the file's timeline and in its stream's
    /// time base; false at the track's end.
    func next(_ packet: UnsafeMutablePointer<AVPacket>, output: UnsafeMutablePointer<AVFormatContext>,
              streams: inout Streams) throws(MuxFailure) -> Bool {
        while true {
            guard let input = demuxer else { return false }
            let status = vod_av_read_frame(input, packet)
            if status == vod_averror_eof() {
                if let failure = reader?.failure { throw failure }
                guard runIndex + 1 < track.runs.count else {
                    close()
                    return false
                }
                // This run starts where what the track wrote so far ends.
                let start = try openRun(runIndex + 1, into: output, streams: &streams)
                shift = (ends.values.max() ?? 0) - start
                continue
            }
            guard status >= 0 else { throw failure(status) }
            guard let target = map[packet.pointee.stream_index], let source = input.pointee.streams[Int(packet.pointee.stream_index)],
                  let destination = output.pointee.streams[Int(target)] else {
                vod_av_packet_unref(packet)
                continue
            }
            let sourceBase = source.pointee.time_base
            let offset = vod_av_rescale_q(shift, vod_time_base_q(), sourceBase)
            if packet.pointee.pts != vod_no_pts() { packet.pointee.pts += offset }
            if packet.pointee.dts != vod_no_pts() { packet.pointee.dts += offset }
            vod_av_packet_rescale_ts(packet, sourceBase, destination.pointee.time_base)
            packet.pointee.stream_index = target
            packet.pointee.pos = -1
            let at = packet.pointee.pts != vod_no_pts() ? packet.pointee.pts : packet.pointee.dts
            if at != vod_no_pts() {
                let end = vod_av_rescale_q(at + packet.pointee.duration, destination.pointee.time_base, vod_time_base_q())
                ends[target] = max(ends[target] ?? end, end)
            }
            return true
        }
    }

    /// The demuxers of what HLS segments and init sections are: MPEG-TS, fragmented MP4, and
    /// packed audio (RFC 8216 §3.4). libavformat matches a demuxer by any of its names.
    static let formats = "mpegts,mov,aac,mp3,ac3,eac3"

    private var which: String {
        track.runs.count == 1 || runIndex < 0 ? track.name : "part \(runIndex + 1) of \(track.runs.count) of \(track.name)"
    }

    /// Opens run `index` and maps its streams to the file's, adding them while the header is
    /// not written. Returns the run's start, in `AV_TIME_BASE` units.
    private func openRun(_ index: Int, into output: UnsafeMutablePointer<AVFormatContext>,
                         streams: inout Streams) throws(MuxFailure) -> Int64 {
        close()
        runIndex = index
        let reader = PartReader(track.runs[index], shouldStop: shouldStop)
        self.reader = reader
        guard let context = reader.context() else { throw MuxFailure(.passing, "out of memory") }
        io = context
        guard let allocated = vod_avformat_alloc_context() else { throw MuxFailure(.passing, "out of memory") }
        allocated.pointee.pb = context
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // A demuxer may open more than it is given: a DASH manifest or a playlist behind an ID3
        // tag made libavformat read file:///home/… into the file, or wait on any http URL for
        // ever, outside every check of vodapp's (fifth attacker trial). Only the containers HLS
        // segments come in are demuxed; nothing is opened but the parts; and the mux's deadline
        // interrupts whatever blocks.
        allocated.pointee.io_open = { _, _, _, _, _ in vod_averror_eperm() }
        allocated.pointee.interrupt_callback = AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<PartReader>.fromOpaque(opaque).takeUnretainedValue().shouldStop() ? 1 : 0
        }, opaque: Unmanaged.passUnretained(reader).toOpaque())
        var options: OpaquePointer?
        vod_av_dict_set(&options, "format_whitelist", Self.formats, 0)
        vod_av_dict_set(&options, "protocol_whitelist", "none", 0)
        defer { vod_av_dict_free(&options) }
        var made: UnsafeMutablePointer<AVFormatContext>? = allocated
        var status = vod_avformat_open_input(&made, nil, nil, &options)
        // On failure, avformat_open_input frees the context and sets `made` to nil.
        demuxer = made
        guard status >= 0, let input = made else {
            // What the probe found is not a demuxer of `formats`: libavformat says only EINVAL.
            if status == vod_averror_einval(), reader.failure == nil, !shouldStop() {
                throw MuxFailure(.unusable, "\(which) is not MPEG-TS, MP4 or packed audio")
            }
            throw failure(status)
        }
        status = vod_avformat_find_stream_info(input, nil)
        guard status >= 0 else { throw failure(status) }

        map = [:]
        for type in [AVMEDIA_TYPE_VIDEO, AVMEDIA_TYPE_AUDIO] {
            let isVideo = type == AVMEDIA_TYPE_VIDEO
            guard isVideo ? track.takesVideo : track.takesAudio else { continue }
            let found = vod_av_find_best_stream(input, type, -1, -1, nil, 0)
            guard found >= 0, let stream = input.pointee.streams[Int(found)] else { continue }
            let codec = stream.pointee.codecpar.pointee.codec_id
            if let existing = isVideo ? streams.video : streams.audio {
                guard streams.codecs[existing] == codec else {
                    throw MuxFailure(.unusable, "\(which) changes its \(isVideo ? "video" : "audio") codec, which one file cannot hold")
                }
                if let header = output.pointee.streams[Int(existing)],
                   let change = Self.change(from: header.pointee.codecpar.pointee, to: stream.pointee.codecpar.pointee,
                                            inBand: input.pointee.iformat.map { String(cString: $0.pointee.name) == "mpegts" } ?? false) {
                    // One MP4 track has one description: played past the change, the picture
                    // broke up (an fMP4 init section of another size) or the sound played at the
                    // wrong pitch (another sample rate). A file that says it is whole must play.
                    throw MuxFailure(.unusable, "\(which) changes its \(change) after a discontinuity, which one file cannot hold")
                }
                map[found] = existing
            } else if !streams.headerWritten {
                guard let added = vod_avformat_new_stream(output, nil),
                      vod_avcodec_parameters_copy(added.pointee.codecpar, stream.pointee.codecpar) >= 0 else {
                    throw MuxFailure(.passing, "out of memory")
                }
                added.pointee.codecpar.pointee.codec_tag = 0
                added.pointee.time_base = stream.pointee.time_base
                // The playlist's word on the language, else the segments' own (MPEG-TS carries one).
                let language = isVideo ? nil : track.audioLanguage.flatMap(LanguageCode.iso639_2)
                    ?? vod_av_dict_get(stream.pointee.metadata, "language", nil, 0).flatMap { LanguageCode.iso639_2(String(cString: $0.pointee.value)) }
                if let language { vod_av_dict_set(&added.pointee.metadata, "language", language, 0) }
                map[found] = added.pointee.index
                streams.codecs[added.pointee.index] = codec
                if isVideo { streams.video = added.pointee.index } else { streams.audio = added.pointee.index }
            }
        }
        return input.pointee.start_time == vod_no_pts() ? 0 : input.pointee.start_time
    }

    /// Why reading stopped with libavformat's `status`: what the reader met, if anything; the
    /// deadline, when libavformat was interrupted; else the run cannot be read.
    private func failure(_ status: Int32) -> MuxFailure {
        if let failure = reader?.failure { return failure }
        if shouldStop() { return MuxFailure(.stopped, "stopped while the file was made") }
        return MuxFailure(.unusable, "\(which) cannot be read: \(StreamMuxer.message(status))")
    }

    /// What changes from the file's stream `header` to a later run's `next`, in words, when the
    /// file cannot carry it: the sample rate or channels of audio; the size of video, unless the
    /// stream carries its parameter sets in band (MPEG-TS, where a decoder follows them).
    static func change(from header: AVCodecParameters, to next: AVCodecParameters, inBand: Bool) -> String? {
        switch header.codec_type {
        case AVMEDIA_TYPE_AUDIO:
            let (before, after) = ((header.sample_rate, header.ch_layout.nb_channels), (next.sample_rate, next.ch_layout.nb_channels))
            guard before != after else { return nil }
            func words(_ format: (Int32, Int32)) -> String { "\(format.0) Hz, \(format.1) channel\(format.1 == 1 ? "" : "s")" }
            return "audio from \(words(before)) to \(words(after))"
        case AVMEDIA_TYPE_VIDEO where !inBand:
            guard (header.width, header.height) != (next.width, next.height) else { return nil }
            return "picture from \(header.width)x\(header.height) to \(next.width)x\(next.height)"
        default:
            return nil
        }
    }

    /// Frees the current run's demuxer, then the I/O context it read through.
    private func close() {
        if demuxer != nil { vod_avformat_close_input(&demuxer) }
        if let context = io {
            vod_av_freep(&context.pointee.buffer)
            vod_avio_context_free(&io)
        }
        io = nil
        reader = nil
    }
}
