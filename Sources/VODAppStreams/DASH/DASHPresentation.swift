import VODAppTransfer

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
/// - In later periods, a track continues with the representation of the same `id`, else the one
///   at the same place by bandwidth; an audio track with the set of the same language, else the
///   same place.
struct DASHPresentation {
    /// The representation playing a track in each period, with the period's length.
    struct Track {
        struct Piece {
            let representation: DASHRepresentation
            let periodDuration: Double?
        }
        let pieces: [Piece]
    }

    let variants: [HLSVariant]
    let renditions: [HLSRendition]
    /// For a manifest without video, the audio set its variants are of, as a rendition: its
    /// name and language go to the report and the file's track.
    let soundRendition: HLSRendition?
    /// The manifest's length, seconds, when known: what the choice multiplies rates by.
    let duration: Double
    private let variantTracks: [Track]
    private let renditionTracks: [Track]

    /// The track of a variant among `variants` (or of a rendition among `renditions`).
    func track(for variant: HLSVariant) -> Track? { variants.firstIndex(of: variant).map { variantTracks[$0] } }
    func track(for rendition: HLSRendition) -> Track? { renditions.firstIndex(of: rendition).map { renditionTracks[$0] } }

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
    static func make(_ manifest: DASHManifest, preferred: [String] = [], systemLanguage: String? = nil) -> Result<DASHPresentation, Refusal> {
        if let reason = refusal(of: manifest) { return .failure(Refusal(reason)) }
        let first = manifest.periods[0]
        let watchable = first.adaptationSets.filter { !$0.isTrickPlay }
        let protected = watchable.flatMap(\.representations).contains(where: \.isProtected)
        let webM = watchable.flatMap(\.representations).contains(where: \.isWebM)
        let video = representations(of: .video, in: first)
        let audioSets = audioSets(in: first)
        guard !video.isEmpty || !audioSets.isEmpty else {
            return .failure(Refusal(protected ? "the DASH streams are encrypted (DRM: ContentProtection), which vodapp cannot decrypt"
                                    : webM ? "the DASH streams are WebM (VP9, Opus), which vodapp does not make into an MP4"
                                    : "the DASH manifest offers no video or audio representation"))
        }
        let duration = manifest.totalDuration ?? 0
        let audioBandwidth = audioSets.map { $0.best.bandwidth }.max() ?? 0
        var variants: [HLSVariant] = []
        var variantTracks: [Track] = []
        var renditions: [HLSRendition] = []
        var renditionTracks: [Track] = []
        var soundRendition: HLSRendition?
        if video.isEmpty {
            // Sound alone: the set the viewer's languages choose, its representations the variants.
            let sets = audioSets.enumerated().map { index, audio in rendition(of: audio, at: index, fallback: manifest.url) }
            let anyVariant = HLSVariant(url: manifest.url, bandwidth: 0, audioGroup: "audio")
            let chosen = HLSAudioChoice.choose(for: anyVariant, among: sets, preferred: preferred, systemLanguage: systemLanguage)
            let index = chosen.flatMap { sets.firstIndex(of: $0) } ?? 0
            soundRendition = sets[index]
            for representation in audioSets[index].set.representations where representation.isUsable {
                variants.append(HLSVariant(url: url(of: representation, fallback: manifest.url), bandwidth: representation.bandwidth,
                                           codecs: representation.codecs))
                variantTracks.append(track(from: representation, kind: .audio, language: nil, in: manifest))
            }
        } else {
            for representation in video {
                let ownAudio = representation.carriesAudio || audioSets.isEmpty
                variants.append(HLSVariant(
                    url: url(of: representation, fallback: manifest.url),
                    bandwidth: representation.bandwidth + (ownAudio ? 0 : audioBandwidth),
                    resolution: representation.width.flatMap { width in representation.height.map { HLSResolution(width: width, height: $0) } },
                    codecs: representation.codecs, audioGroup: ownAudio ? nil : "audio"))
                variantTracks.append(track(from: representation, kind: .video, language: nil, in: manifest))
            }
            for (index, audio) in audioSets.enumerated() {
                renditions.append(rendition(of: audio, at: index, fallback: manifest.url))
                renditionTracks.append(track(from: audio.best, kind: .audio, language: audio.set.language, in: manifest))
            }
        }
        if let broken = (variantTracks + renditionTracks).first(where: { $0.pieces.count != manifest.periods.count }) {
            let missing = broken.pieces.count
            return .failure(Refusal("the DASH manifest's period \(missing + 1) lacks a stream that period 1 has"))
        }
        return .success(DASHPresentation(variants: variants, renditions: renditions, soundRendition: soundRendition, duration: duration,
                                         variantTracks: variantTracks, renditionTracks: renditionTracks))
    }

    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    // MARK: - Building

    /// An audio set as a rendition: named by its `Label`, else its language; the `main` role is
    /// the default.
    private static func rendition(of audio: (set: DASHAdaptationSet, best: DASHRepresentation), at index: Int,
                                  fallback: MediaURL) -> HLSRendition {
        HLSRendition(kind: .audio, groupID: "audio", name: audio.set.label ?? audio.set.language ?? "audio \(index + 1)",
                     language: audio.set.language, isDefault: audio.set.roles.contains("main"), autoselect: true,
                     url: url(of: audio.best, fallback: fallback))
    }

    /// The unprotected representations of a kind in a period's watchable sets, highest
    /// bandwidth first.
    private static func representations(of kind: DASHAdaptationSet.Kind, in period: DASHPeriod) -> [DASHRepresentation] {
        period.adaptationSets.filter { $0.kind == kind && !$0.isTrickPlay }.flatMap(\.representations)
            .filter { $0.isUsable }.sorted { $0.bandwidth > $1.bandwidth }
    }

    /// The audio sets with a representation vodapp can fetch, and the best of each.
    private static func audioSets(in period: DASHPeriod) -> [(set: DASHAdaptationSet, best: DASHRepresentation)] {
        period.adaptationSets.filter { $0.kind == .audio && !$0.isTrickPlay }.compactMap { set in
            set.representations.filter { $0.isUsable }.max { $0.bandwidth < $1.bandwidth }.map { (set, $0) }
        }
    }

    /// A representation's track through every period: the same `id`, else the same place by
    /// bandwidth; for audio, within the set of the same language (else the same place).
    private static func track(from representation: DASHRepresentation, kind: DASHAdaptationSet.Kind, language: String?,
                              in manifest: DASHManifest) -> Track {
        let first = manifest.periods[0]
        let firstCandidates = candidates(kind: kind, language: language, in: first, preferredSet: nil)
        let rank = firstCandidates.firstIndex(of: representation) ?? 0
        let setIndex = kind == .audio ? audioSets(in: first).firstIndex { $0.set.representations.contains(representation) } : nil
        var pieces = [Track.Piece(representation: representation, periodDuration: first.duration)]
        for period in manifest.periods.dropFirst() {
            let options = candidates(kind: kind, language: language, in: period, preferredSet: setIndex)
            guard !options.isEmpty else { break }
            let next = options.first { $0.id == representation.id } ?? options[min(rank, options.count - 1)]
            pieces.append(Track.Piece(representation: next, periodDuration: period.duration))
        }
        return Track(pieces: pieces)
    }

    private static func candidates(kind: DASHAdaptationSet.Kind, language: String?, in period: DASHPeriod,
                                   preferredSet: Int?) -> [DASHRepresentation] {
        guard kind == .audio else { return representations(of: kind, in: period) }
        let sets = audioSets(in: period).map(\.set)
        let set = sets.first { language != nil && $0.language == language }
            ?? preferredSet.flatMap { $0 < sets.count ? sets[$0] : nil } ?? sets.first
        return set.map { $0.representations.filter { $0.isUsable }.sorted { $0.bandwidth > $1.bandwidth } } ?? []
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
