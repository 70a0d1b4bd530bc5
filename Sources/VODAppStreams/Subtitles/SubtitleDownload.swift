import Foundation
import VODAppDASH
import VODAppHLS
import VODAppModel
import VODAppMux
import VODAppTransferPolicy

/// The WebVTT renditions of one stream item on their way to `NAME.LANG.vtt`: each rendition's
/// media playlist (HLS) or its listed segments (DASH), then its segments, all small documents
/// fetched into memory through the delivery's own transfer run, then joined (`WebVTTJoiner`)
/// once the item's file is muxed and its start known.
///
/// A subtitle is an extra: whatever goes wrong with one (a 404, a live playlist, a page, the
/// budget) is said in the item's report, and the item is fetched, muxed and placed without it.
/// Nothing of a subtitle is kept between deliveries: hours of dialogue are a few hundred KiB.
struct SubtitleDownload {
    /// One rendition and what has arrived of it.
    private struct Rendition {
        let rendition: HLSRendition
        let language: String
        /// Its segments, once its playlist is read (at once for DASH).
        var segments: [HLSSegment]?
        /// Each segment's bytes, as they arrive.
        var texts: [[UInt8]?] = []
        var cursor = 0
        var bytes = 0
        var failure: String?

        var isDone: Bool { failure != nil || (segments != nil && cursor == segments?.count && !texts.contains { $0 == nil }) }
    }

    /// The most of an item's subtitle requests queued or running at once: they are small, and
    /// the video's segments matter more.
    static let window = 4
    /// The most bytes of one segment: a WebVTT segment of minutes is a few KiB.
    static let segmentLimit = 1 << 20
    /// The most segments and bytes an item's subtitles have between them: a two-hour film's
    /// subtitles in 2 s segments are 3,600 of a few hundred KiB in all. Each rendition with its
    /// own 20,000 took a delivery's 40,000 from the other items (eleventh attacker trial).
    static let itemSegmentLimit = 4_000
    static let itemByteLimit = 16 << 20

    let key: String
    let itemURL: MediaURL
    let workPath: String
    /// DASH periods after the first start their cue times anew: each segment after a
    /// discontinuity is moved by the time listed before it.
    private let timesRestartAtDiscontinuities: Bool
    private var renditions: [Rendition]
    /// Requests asked for and not ended: which rendition, and which segment (nil: its playlist).
    private var requested: [String: (rendition: Int, segment: Int?)] = [:]
    /// Playlists still to ask for, by rendition.
    private var playlistsToAsk: [Int]
    /// What was asked for and is not fetched (`SubtitleChoice.Decision.unmet`), for the report.
    private let unmet: [SubtitleTrack]
    /// The segments listed and the bytes received, all renditions together.
    private var segmentsListed = 0
    private var bytesReceived = 0
    /// Whether the playlist or manifest came over https: then so must every subtitle.
    private let secure: Bool

    private init(key: String, itemURL: MediaURL, workPath: String, secure: Bool, unmet: [SubtitleTrack],
                 timesRestartAtDiscontinuities: Bool, renditions: [Rendition], playlistsToAsk: [Int]) {
        self.key = key
        self.itemURL = itemURL
        self.workPath = workPath
        self.secure = secure
        self.unmet = unmet
        self.timesRestartAtDiscontinuities = timesRestartAtDiscontinuities
        self.renditions = renditions
        self.playlistsToAsk = playlistsToAsk
    }

    /// The renditions of an HLS master playlist: their playlists are fetched first.
    init(key: String, itemURL: MediaURL, workPath: String, secure: Bool, hls chosen: [HLSRendition], unmet: [SubtitleTrack] = []) {
        self.init(key: key, itemURL: itemURL, workPath: workPath, secure: secure, unmet: unmet, timesRestartAtDiscontinuities: false,
                  renditions: chosen.map { Rendition(rendition: $0, language: SubtitleChoice.fileTag($0)) },
                  playlistsToAsk: Array(chosen.indices))
    }

    /// The text sets of a DASH manifest, their segments listed already.
    init(key: String, itemURL: MediaURL, workPath: String, secure: Bool,
         dash chosen: [(HLSRendition, Result<HLSMediaPlaylist, DASHPresentation.Refusal>)], unmet: [SubtitleTrack] = [],
         limits: inout HLSSegmentLimits) {
        let renditions = chosen.map { rendition, listed in
            var made = Rendition(rendition: rendition, language: SubtitleChoice.fileTag(rendition))
            switch listed {
            case .success(let playlist):
                made.segments = playlist.segments
                made.texts = Array(repeating: nil, count: playlist.segments.count)
            case .failure(let refusal):
                made.failure = refusal.reason
            }
            return made
        }
        self.init(key: key, itemURL: itemURL, workPath: workPath, secure: secure, unmet: unmet, timesRestartAtDiscontinuities: true,
                  renditions: renditions, playlistsToAsk: [])
        for index in renditions.indices {
            if let segments = renditions[index].segments, let refusal = take(segments.count, limits: &limits) {
                self.renditions[index].failure = refusal
                self.renditions[index].segments = nil
            }
        }
    }

    /// Counts `count` segments against the item's subtitles and the delivery; why not, when they
    /// do not fit.
    private mutating func take(_ count: Int, limits: inout HLSSegmentLimits) -> String? {
        guard segmentsListed + count <= Self.itemSegmentLimit else {
            return "it lists \(count) segments, more than the \(Self.itemSegmentLimit - segmentsListed) left of the "
                + "\(Self.itemSegmentLimit) an item's subtitles may have between them"
        }
        guard limits.take(count) else {
            return limits.refusal(segments: count)?.reason ?? "it lists more segments than vodapp fetches"
        }
        segmentsListed += count
        return nil
    }

    /// Whether nothing is coming: every rendition whole or given up.
    var isSettled: Bool { requested.isEmpty && playlistsToAsk.isEmpty && renditions.allSatisfy(\.isDone) }

    /// Whether `id` is one of its requests.
    func owns(_ id: String) -> Bool { requested[id] != nil }

    /// The ids of its requests not ended, and the renditions they were for given up: the item
    /// gave up, or its run is over.
    mutating func cancel(because reason: String) -> Set<String> {
        defer { requested = [:] }
        for index in renditions.indices where !renditions[index].isDone { renditions[index].failure = reason }
        playlistsToAsk = []
        return Set(requested.keys)
    }

    /// The next requests: playlists first, then segments in order, up to `window`.
    mutating func askForMore(limits: inout HLSSegmentLimits) -> [TransferRequest] {
        var requests: [TransferRequest] = []
        while requested.count < Self.window, let index = playlistsToAsk.first {
            playlistsToAsk.removeFirst()
            guard let url = renditions[index].rendition.url else {
                renditions[index].failure = "the rendition names no playlist"
                continue
            }
            // Checked here, not with the master playlist: a subtitle never asked for decides
            // nothing (eleventh attacker trial).
            if secure, !url.isHTTPS {
                renditions[index].failure = "its playlist \(url.redacted) is not on https, as the stream is"
                continue
            }
            let id = "\(key)/sub\(index + 1)-playlist"
            requested[id] = (index, nil)
            requests.append(TransferRequest(id: id, url: url, temporaryPath: workPath + "/sub\(index + 1).part",
                                            maximumSize: Int64(HLSPlaylist.maximumBytes), expectation: .document(limit: HLSPlaylist.maximumBytes),
                                            credentialScope: itemURL))
        }
        for index in renditions.indices {
            while requested.count < Self.window, renditions[index].failure == nil, let segments = renditions[index].segments,
                  renditions[index].cursor < segments.count {
                let number = renditions[index].cursor
                renditions[index].cursor += 1
                let segment = segments[number]
                let id = "\(key)/sub\(index + 1)-\(number + 1)"
                requested[id] = (index, number)
                requests.append(TransferRequest(id: id, url: segment.url, temporaryPath: workPath + "/sub\(index + 1)-\(number + 1).part",
                                                maximumSize: Int64(Self.segmentLimit), expectation: .document(limit: Self.segmentLimit),
                                                credentialScope: itemURL,
                                                slice: segment.byteRange.map { TransferRequest.Slice(offset: $0.offset, length: $0.length) }))
            }
        }
        return requests
    }

    /// Takes how one of its requests ended; returns the requests that follow.
    mutating func take(_ outcome: TransferOutcome, limits: inout HLSSegmentLimits,
                       deadline: ContinuousClock.Instant?) -> [TransferRequest] {
        guard let (index, segment) = requested.removeValue(forKey: outcome.id) else { return [] }
        guard renditions[index].failure == nil else { return askForMore(limits: &limits) }
        guard case .captured(let data) = outcome.result else {
            // Which one, where: "segment 2" alone sent the new-user trial to the log.
            let what: String
            if let segment, let segments = renditions[index].segments {
                what = (segments.count == 1 ? "its file" : "its segment \(segment + 1) of \(segments.count)") + " at \(segments[segment].url.redacted)"
            } else {
                what = "its playlist" + (renditions[index].rendition.url.map { " at \($0.redacted)" } ?? "")
            }
            renditions[index].failure = switch outcome.result {
            case .timedOut(let reason): "\(what) did not arrive: \(reason)"
            case .failed(let reason): "\(what) failed: \(reason)"
            case .tooLarge: "\(what) is larger than a subtitle is"
            case .completed, .captured: "\(what) is not what was expected"
            }
            return askForMore(limits: &limits)
        }
        if let segment {
            renditions[index].bytes += data.count
            bytesReceived += data.count
            if renditions[index].bytes > WebVTTJoiner.defaultLimit {
                renditions[index].failure = "its segments make more than \(WebVTTJoiner.defaultLimit) bytes"
                renditions[index].texts = []
            } else if bytesReceived > Self.itemByteLimit {
                renditions[index].failure = "the item's subtitles make more than \(Self.itemByteLimit) bytes between them"
                renditions[index].texts = []
            } else {
                renditions[index].texts[segment] = data
            }
        } else if let url = outcome.finalURL {
            read(playlist: data, from: url, into: index, limits: &limits, deadline: deadline)
        }
        return askForMore(limits: &limits)
    }

    /// Reads a rendition's media playlist, and lists its segments.
    private mutating func read(playlist data: [UInt8], from url: MediaURL, into index: Int, limits: inout HLSSegmentLimits,
                               deadline: ContinuousClock.Instant?) {
        let playlist: HLSPlaylist
        do {
            playlist = try HLSPlaylist.parse(data, url: url, maximumSegments: limits.available, deadline: deadline)
        } catch {
            renditions[index].failure = "its playlist cannot be read: \(error)"
            return
        }
        guard case .media(let media) = playlist else {
            renditions[index].failure = "its playlist is a master playlist"
            return
        }
        if let plain = playlist.plainHTTPURL(fetchedFrom: url) {
            renditions[index].failure = HLSPlaylist.insecure(plain, named: "its playlist", at: url)
            return
        }
        if media.segments.isEmpty {
            renditions[index].failure = "its playlist lists no segment"
        } else if media.isLive {
            renditions[index].failure = "its playlist is live (no #EXT-X-ENDLIST)"
        } else if media.segments.contains(where: { $0.key != nil }) {
            renditions[index].failure = "its segments are encrypted"
        } else if let refusal = take(media.segments.count, limits: &limits) {
            renditions[index].failure = refusal
        } else {
            renditions[index].segments = media.segments
            renditions[index].texts = Array(repeating: nil, count: media.segments.count)
        }
    }

    /// The renditions as they ended, each joined onto the timeline of the file whose zero is the
    /// media time `zero` (`StreamMuxer.Made.start`).
    /// - Parameter shouldStop: asked as each is joined: the budget, or a signal.
    func tracks(zero: Double, shouldStop: () -> Bool = { false }) -> [SubtitleTrack] {
        renditions.map { rendition in
            joined(rendition, zero: zero, shouldStop: shouldStop)
        } + unmet
    }

    /// One rendition as it ended: its segments joined, or why not.
    private func joined(_ rendition: Rendition, zero: Double, shouldStop: () -> Bool) -> SubtitleTrack {
        let (language, name) = (rendition.language, rendition.rendition.name)
        if let failure = rendition.failure { return SubtitleTrack(language: language, name: name, error: failure) }
        guard let segments = rendition.segments, !rendition.texts.contains(where: { $0 == nil }) else {
            return SubtitleTrack(language: language, name: name, error: "it did not arrive before the run ended")
        }
        var offset = 0.0
        var listed = 0.0
        var joined: [WebVTTJoiner.Segment] = []
        for (segment, text) in zip(segments, rendition.texts) {
            if timesRestartAtDiscontinuities, segment.followsDiscontinuity { offset = listed }
            joined.append(WebVTTJoiner.Segment(text ?? [], offset: offset))
            listed += segment.duration
        }
        do throws(WebVTTJoiner.Failure) {
            return SubtitleTrack(language: language, name: name, text: try WebVTTJoiner.join(joined, zero: zero, shouldStop: shouldStop))
        } catch {
            return SubtitleTrack(language: language, name: name, error: error.description)
        }
    }
}
