import VODAppHLS
import VODAppModel

/// The segments of a chosen DASH track, period by period, as they become known: listed at once
/// from a template or a list, or, for a `SegmentBase` period, once the bytes of its segment
/// index have arrived (`take(index:for:)`). Complete, they read as one HLS media playlist, each
/// period after the first starting anew (a discontinuity, with its own init section), which
/// the item's download and muxer already follow.
package struct DASHTrackSegments {
    /// A segment index still to fetch: the bytes `range` of `url`, for the period `piece`.
    package struct IndexNeeded {
        let piece: Int
        package let url: MediaURL
        package let range: HLSByteRange
        /// The initialization segment that goes with the segments the index lists.
        package let initialization: DASHSegmentReference?
    }

    private struct Listed {
        let initialization: DASHSegmentReference?
        let segments: [DASHSegmentReference]
    }

    private var pieces: [Listed?]
    /// The indexes to fetch before the track is complete.
    package private(set) var needed: [IndexNeeded] = []
    /// The most segments the track may list in all.
    let limit: Int

    /// Lists what the track's addressing lists at once; `needed` says which indexes to fetch.
    package init(_ track: DASHPresentation.Track, limit: Int) throws(DASHManifestError) {
        self.limit = limit
        pieces = Array(repeating: nil, count: track.pieces.count)
        var listed = 0
        for (number, piece) in track.pieces.enumerated() {
            let representation = piece.representation
            switch representation.addressing {
            case .template(let template, let base, let periodDuration):
                let result = try template.segments(representation: representation.id, bandwidth: representation.bandwidth, base: base,
                                                   periodDuration: periodDuration ?? piece.periodDuration, limit: max(0, limit - listed))
                pieces[number] = Listed(initialization: result.initialization, segments: result.segments)
            case .list(let list, let base):
                guard list.entries.count <= limit - listed else { throw .tooManySegments(count: listed + list.entries.count, limit: limit) }
                let result = try list.segments(base: base)
                pieces[number] = Listed(initialization: result.initialization, segments: result.segments)
            case .whole(let url):
                pieces[number] = Listed(initialization: nil, segments: [DASHSegmentReference(url: url, duration: piece.periodDuration ?? 0)])
            case .indexed(let url, let initialization, let index):
                // Without its own range, the initialization segment is what comes before the
                // index: `ftyp` and `moov`, as packagers write a single-file DASH MP4.
                let start = initialization ?? (index.offset > 0 ? HLSByteRange(offset: 0, length: index.offset) : nil)
                needed.append(IndexNeeded(piece: number, url: url, range: index,
                                          initialization: start.map { DASHSegmentReference(url: url, range: $0) }))
            }
            listed += pieces[number]?.segments.count ?? 0
            guard listed <= limit else { throw .tooManySegments(count: listed, limit: limit) }
        }
    }

    /// The segments listed so far.
    package var listed: Int { pieces.reduce(0) { $0 + ($1?.segments.count ?? 0) } }

    /// Whether every period's segments are listed.
    package var isComplete: Bool { pieces.allSatisfy { $0 != nil } }

    /// Lists a `SegmentBase` period's segments from its index's bytes.
    package mutating func take(index bytes: [UInt8], for needed: IndexNeeded) throws(DASHSegmentIndex.Failure) {
        let segments = try DASHSegmentIndex.segments(in: bytes, at: needed.range.offset, of: needed.url, limit: max(0, limit - listed))
        pieces[needed.piece] = Listed(initialization: needed.initialization, segments: segments)
    }

    /// The track as one media playlist, once complete: every period's segments in turn, each
    /// period after the first after a discontinuity.
    package func playlist(url: MediaURL) -> HLSMediaPlaylist {
        var segments: [HLSSegment] = []
        for (number, piece) in pieces.enumerated() {
            guard let piece else { continue }
            let map = piece.initialization.map { HLSMap(url: $0.url, byteRange: $0.range) }
            for (index, segment) in piece.segments.enumerated() {
                segments.append(HLSSegment(url: segment.url, duration: segment.duration, sequenceNumber: UInt64(segments.count),
                                           byteRange: segment.range, map: map, followsDiscontinuity: number > 0 && index == 0))
            }
        }
        return HLSMediaPlaylist(url: url, targetDuration: nil, mediaSequence: 0, playlistType: .vod, hasEndList: true,
                                isIFramesOnly: false, segments: segments)
    }
}
