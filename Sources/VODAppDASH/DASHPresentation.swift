import VODAppHLS
import VODAppModel

/// A DASH manifest as the choice sees an HLS master playlist, so that one set of rules chooses
/// for both (`HLSVariantChoice`, `HLSAudioChoice`): its video representations become variants,
/// each audio adaptation set a rendition; and for whatever is chosen, the representation that
/// plays it in each period, in turn (`Track`).
///
/// - Representations with `ContentProtection` (DRM), WebM ones (which an MP4 is not muxed
///   from) and trick-play sets are left out.
/// - A variant's BANDWIDTH is its video's plus the highest audio's, so that the size the choice
///   expects counts the sound that is fetched beside it.
/// - A rendition stands for its adaptation set's highest-bandwidth representation; its NAME is
///   the set's `Label`, else its language; DEFAULT=YES is the `main` role.
/// - A manifest without video offers the representations of one audio set as variants, the set
///   the viewer's languages choose as a rendition would be (`soundRendition`): the file is sound.
/// - Each WebVTT text set (`text/vtt`) is a subtitle rendition of every variant
///   (`SubtitleChoice`), when every period has one of its language.
/// - In later periods, a track continues with the representation of the same `id`, else the one
///   at the same place by bandwidth; an audio track with the set of the same language, else the
///   same place.
package struct DASHPresentation {
    /// The representation playing a track in each period, with the period's length.
    package struct Track {
        package struct Piece {
            package let representation: DASHRepresentation
            let periodDuration: Double?
        }
        package let pieces: [Piece]
    }

    package let variants: [HLSVariant]
    package let renditions: [HLSRendition]
    /// The WebVTT text sets, as subtitle renditions of the group every variant names.
    package let subtitles: [HLSRendition]
    /// For a manifest without video, the audio set its variants are of, as a rendition: its
    /// name and language go to the report and the file's track.
    package let soundRendition: HLSRendition?
    /// The manifest's length, seconds, when known: what the choice multiplies rates by.
    package let duration: Double
    private let variantTracks: [Track]
    private let renditionTracks: [Track]
    private let subtitleTracks: [Track]

    /// The group every variant names for its subtitles.
    package static let subtitleGroup = "subtitles"

    /// The track of a variant among `variants` (or of a rendition among `renditions`).
    package func track(for variant: HLSVariant) -> Track? { variants.firstIndex(of: variant).map { variantTracks[$0] } }
    package func track(for rendition: HLSRendition) -> Track? { renditions.firstIndex(of: rendition).map { renditionTracks[$0] } }

    /// A subtitle rendition's segments as a media playlist, at most `limit` of them; or why they
    /// cannot be listed.
    package func subtitlePlaylist(for rendition: HLSRendition, url: MediaURL, limit: Int) -> Result<HLSMediaPlaylist, Refusal> {
        guard let index = subtitles.firstIndex(of: rendition) else { return .failure(Refusal("the DASH manifest has no such text set")) }
        let listed: DASHTrackSegments
        do throws(DASHManifestError) {
            listed = try DASHTrackSegments(subtitleTracks[index], limit: limit)
        } catch {
            return .failure(Refusal("the DASH manifest's text set cannot be read: \(error)"))
        }
        guard listed.isComplete else { return .failure(Refusal("the DASH text set is indexed (SegmentBase), which WebVTT never is")) }
        let playlist = listed.playlist(url: url)
        guard !playlist.segments.isEmpty else { return .failure(Refusal("the DASH text set lists no segment")) }
        if let plain = HLSPlaylist.media(playlist).plainHTTPURL(fetchedFrom: url) {
            return .failure(Refusal(HLSPlaylist.insecure(plain, named: "the DASH manifest", at: url)))
        }
        return .success(playlist)
    }

    /// Why a manifest cannot be downloaded, in a person's words; each is final.
    static func refusal(of manifest: DASHManifest) -> String? {
        if manifest.isDynamic { return "the DASH manifest is live (type=\"dynamic\"): only finished videos (VOD) can be downloaded" }
        if manifest.periods.isEmpty { return "the DASH manifest has no Period" }
        return nil
    }

    /// The variants and renditions of `manifest`, or why there are none.
    /// - Parameters:
    ///   - preferred: the viewer's audio languages (`--audio-lang`), for a manifest without video,
    ///     whose choice of language is the choice of variants.
    ///   - systemLanguage: `$LANG`, likewise.
    package static func make(_ manifest: DASHManifest, preferred: [String] = [], systemLanguage: String? = nil) -> Result<DASHPresentation, Refusal> {
        if let reason = refusal(of: manifest) { return .failure(Refusal(reason)) }
        // Each period's streams sorted once: sorting them again for each representation made a
        // choice among 1,000 take a second on the transfer thread.
        let periods = manifest.periods.map(PeriodStreams.init)
        let first = periods[0]
        guard !first.video.isEmpty || !first.audio.isEmpty else {
            let watchable = manifest.periods[0].adaptationSets.filter { !$0.isTrickPlay }.flatMap(\.representations)
            return .failure(Refusal(watchable.contains(where: \.isProtected)
                                    ? "the DASH streams are encrypted (DRM: ContentProtection), which vodapp cannot decrypt"
                                    : watchable.contains(where: \.isWebM)
                                    ? "the DASH streams are WebM (VP9, Opus), which vodapp does not make into an MP4"
                                    : "the DASH manifest offers no video or audio representation"))
        }
        let renditionsOfSets = first.audio.indices.map { rendition(of: first.audio[$0], at: $0, fallback: manifest.url) }
        var variants: [HLSVariant] = []
        var variantTracks: [Track] = []
        var renditions: [HLSRendition] = []
        var renditionTracks: [Track] = []
        var soundRendition: HLSRendition?
        if first.video.isEmpty {
            // Sound alone: the set the viewer's languages choose, its representations the variants.
            let anyVariant = HLSVariant(url: manifest.url, bandwidth: 0, audioGroup: "audio")
            let chosen = HLSAudioChoice.choose(for: anyVariant, among: renditionsOfSets, preferred: preferred, systemLanguage: systemLanguage)
            let set = chosen.flatMap { renditionsOfSets.firstIndex(of: $0) } ?? 0
            soundRendition = renditionsOfSets[set]
            for (rank, representation) in first.audio[set].representations.enumerated() {
                variants.append(HLSVariant(url: url(of: representation, fallback: manifest.url), bandwidth: representation.bandwidth,
                                           codecs: representation.codecs))
                variantTracks.append(track(.audio, set: set, rank: rank, through: periods))
            }
        } else {
            let audioBandwidth = first.audio.map { $0.representations[0].bandwidth }.max() ?? 0
            for (rank, representation) in first.video.enumerated() {
                let ownAudio = representation.carriesAudio || first.audio.isEmpty
                variants.append(HLSVariant(
                    url: url(of: representation, fallback: manifest.url),
                    bandwidth: representation.bandwidth + (ownAudio ? 0 : audioBandwidth),
                    resolution: representation.width.flatMap { width in representation.height.map { HLSResolution(width: width, height: $0) } },
                    codecs: representation.codecs, audioGroup: ownAudio ? nil : "audio"))
                variantTracks.append(track(.video, set: nil, rank: rank, through: periods))
            }
            renditions = renditionsOfSets
            renditionTracks = first.audio.indices.map { track(.audio, set: $0, rank: 0, through: periods) }
        }
        // Subtitles: each WebVTT set of the first period, through every period by language.
        var subtitles: [HLSRendition] = []
        var subtitleTracks: [Track] = []
        for (index, set) in first.text.enumerated() {
            // The set itself in the first period (two sets may share a language: the dialogue
            // and its forced lines), the first of its language in each later one.
            let pieces = periods.enumerated().compactMap { number, period in
                (number == 0 ? set : period.text.first { $0.set.language == set.set.language }
                    ?? (set.set.language == nil ? period.text.first : nil))
                    .map { Track.Piece(representation: $0.representations[0], periodDuration: period.duration) }
            }
            guard pieces.count == periods.count else { continue }
            subtitles.append(HLSRendition(kind: .subtitles, groupID: subtitleGroup, name: set.set.label ?? set.set.language ?? "subtitles \(index + 1)",
                                          language: set.set.language, isDefault: set.set.roles.contains("main"), autoselect: true,
                                          url: url(of: set.representations[0], fallback: manifest.url),
                                          isForced: set.set.roles.contains("forced-subtitle")))
            subtitleTracks.append(Track(pieces: pieces))
        }
        if !subtitles.isEmpty {
            variants = variants.map { variant in
                HLSVariant(url: variant.url, bandwidth: variant.bandwidth, averageBandwidth: variant.averageBandwidth, resolution: variant.resolution,
                           codecs: variant.codecs, audioGroup: variant.audioGroup, subtitleGroup: subtitleGroup)
            }
        }
        if let broken = (variantTracks + renditionTracks).first(where: { $0.pieces.count != manifest.periods.count }) {
            let missing = broken.pieces.count
            return .failure(Refusal("the DASH manifest's period \(missing + 1) lacks a stream that period 1 has"))
        }
        return .success(DASHPresentation(variants: variants, renditions: renditions, subtitles: subtitles, soundRendition: soundRendition,
                                         duration: manifest.totalDuration ?? 0, variantTracks: variantTracks, renditionTracks: renditionTracks,
                                         subtitleTracks: subtitleTracks))
    }

    package struct Refusal: Error {
        package let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    // MARK: - Building

    /// A period's streams as the choice reads them: its video representations and each audio
    /// set's, highest bandwidth first, without the protected, the WebM and trick-play sets; sets
    /// without a usable representation left out.
    private struct PeriodStreams {
        let duration: Double?
        let video: [DASHRepresentation]
        let audio: [(set: DASHAdaptationSet, representations: [DASHRepresentation])]
        /// The WebVTT text sets (`text/vtt`: not TTML, nor WebVTT in MP4, which are not files a
        /// player loads beside a video).
        let text: [(set: DASHAdaptationSet, representations: [DASHRepresentation])]

        init(_ period: DASHPeriod) {
            duration = period.duration
            let watchable = period.adaptationSets.filter { !$0.isTrickPlay }
            func usable(_ representations: [DASHRepresentation]) -> [DASHRepresentation] {
                representations.filter(\.isUsable).sorted { $0.bandwidth > $1.bandwidth }
            }
            video = usable(watchable.filter { $0.kind == .video }.flatMap(\.representations))
            audio = watchable.filter { $0.kind == .audio }.compactMap { set in
                let representations = usable(set.representations)
                return representations.isEmpty ? nil : (set, representations)
            }
            text = watchable.filter { $0.kind == .text }.compactMap { set in
                let representations = set.representations.filter { !$0.isProtected && $0.mimeType == "text/vtt" }
                return representations.isEmpty ? nil : (set, representations)
            }
        }

        /// The representations a track of `kind` continues among: for audio, the set at `set`'s
        /// place when its language is the track's, else the first set of that language, else the
        /// one at `set`'s place, else the first. (Two sets may share a language: a programme's
        /// sound and its audio description.)
        func options(_ kind: DASHAdaptationSet.Kind, set: Int?, language: String?) -> [DASHRepresentation] {
            guard kind == .audio else { return video }
            let placed = set.flatMap { $0 < audio.count ? audio[$0] : nil }
            let chosen = (placed?.set.language == language ? placed : nil)
                ?? audio.first { language != nil && $0.set.language == language } ?? placed ?? audio.first
            return chosen?.representations ?? []
        }
    }

    /// An audio set as a rendition: named by its `Label`, else its language; the `main` role is
    /// the default; it stands for the set's highest-bandwidth representation.
    private static func rendition(of audio: (set: DASHAdaptationSet, representations: [DASHRepresentation]), at index: Int,
                                  fallback: MediaURL) -> HLSRendition {
        HLSRendition(kind: .audio, groupID: "audio", name: audio.set.label ?? audio.set.language ?? "audio \(index + 1)",
                     language: audio.set.language, isDefault: audio.set.roles.contains("main"), autoselect: true,
                     url: url(of: audio.representations[0], fallback: fallback))
    }

    /// The track of the first period's representation at `rank` (in the audio set at `set`)
    /// through every period: the same `id`, else the same place by bandwidth; for audio, within
    /// the set of the same language (else the same place).
    private static func track(_ kind: DASHAdaptationSet.Kind, set: Int?, rank: Int, through periods: [PeriodStreams]) -> Track {
        let first = periods[0]
        let language = set.flatMap { first.audio[$0].set.language }
        let representation = first.options(kind, set: set, language: language)[rank]
        var pieces = [Track.Piece(representation: representation, periodDuration: first.duration)]
        for period in periods.dropFirst() {
            let options = period.options(kind, set: set, language: language)
            guard !options.isEmpty else { break }
            let next = options.first { $0.id == representation.id } ?? options[min(rank, options.count - 1)]
            pieces.append(Track.Piece(representation: next, periodDuration: period.duration))
        }
        return Track(pieces: pieces)
    }

    /// The URL a representation's variant is known by: where its segments are.
    private static func url(of representation: DASHRepresentation, fallback: MediaURL) -> MediaURL {
        switch representation.addressing {
        case .template(_, let base, _): base
        case .list(_, let base): base
        case .indexed(let url, _, _), .whole(let url): url
        }
    }
}
