import VODAppHLS
import VODAppModel

/// Which WebVTT renditions a chosen variant is fetched with, and what was asked for and cannot
/// be. Pure: the master playlist's renditions and the viewer's selection in, a decision out.
///
/// - Only the group the variant names (`SUBTITLES="…"`) is a candidate, as players read it; a
///   rendition without a URI has nothing to fetch.
/// - Each becomes `NAME.LANG.vtt` beside the file, so one is chosen per language (`fileTag`):
///   of a language's renditions, one not FORCED (forced ones carry only the foreign-language
///   lines), then DEFAULT=YES, then the first.
/// - `--subtitles de` matches `deu`, `ger` and `de-AT` as `--audio-lang` does
///   (`HLSAudioChoice.matches`); `und` matches a rendition of no language.
/// - What cannot be had is said, not left silent (new-user trial): a language the variant's
///   group does not offer, and a rendition of a language whose file another takes.
public enum SubtitleChoice {
    public struct Decision: Sendable, Equatable {
        /// The renditions to fetch, one per file tag.
        public let chosen: [HLSRendition]
        /// What was asked for and is not fetched, with why, for the report.
        public let unmet: [SubtitleTrack]

        public init(chosen: [HLSRendition], unmet: [SubtitleTrack]) {
            self.chosen = chosen
            self.unmet = unmet
        }
    }

    /// The renditions to fetch.
    public static func choose(for variant: HLSVariant, among renditions: [HLSRendition],
                              selection: SubtitleSelection) -> [HLSRendition] {
        decide(for: variant, among: renditions, selection: selection).chosen
    }

    /// The most renditions an item fetches: one file each, recorded in its store record.
    public static let maximumRenditions = 32

    public static func decide(for variant: HLSVariant, among renditions: [HLSRendition],
                              selection: SubtitleSelection) -> Decision {
        if selection == .none { return Decision(chosen: [], unmet: []) }
        // Each candidate's tag made once: a thousand renditions of long LANGUAGEs, each compared
        // with every other, held the transfer thread for minutes (eleventh attacker trial).
        let candidates: [(rendition: HLSRendition, tag: String)] = variant.subtitleGroup.map { group in
            renditions.filter { $0.kind == .subtitles && $0.groupID == group && $0.url != nil }.map { ($0, fileTag($0)) }
        } ?? []
        let byTag = Dictionary(grouping: candidates.indices, by: { candidates[$0].tag })
        var chosen: [(rendition: HLSRendition, tag: String)] = []
        var chosenTags: [String: String] = [:]
        var unmet: [SubtitleTrack] = []
        func add(_ index: Int) {
            let (rendition, tag) = candidates[index]
            if let taken = chosenTags[tag] {
                unmet.append(SubtitleTrack(language: tag, name: rendition.name,
                                           error: "left out: one file per language, and \"\(taken)\" is the \(tag) one"))
            } else if chosen.count == maximumRenditions {
                unmet.append(SubtitleTrack(language: tag, name: rendition.name,
                                           error: "left out: an item gets at most \(maximumRenditions) subtitle files"))
            } else {
                chosen.append((rendition, tag))
                chosenTags[tag] = rendition.name
            }
        }
        switch selection {
        case .none:
            break
        case .all:
            // Language by language, in the playlist's order: the best rendition of each; each
            // other one of the language is said to be left out, unless it is forced lines.
            var seen: Set<String> = []
            for candidate in candidates where seen.insert(candidate.tag).inserted {
                let sameLanguage = byTag[candidate.tag] ?? []
                guard let best = best(sameLanguage, of: candidates) else { continue }
                add(best)
                for other in sameLanguage where other != best && !candidates[other].rendition.isForced { add(other) }
            }
        case .languages(let wanted):
            for language in wanted {
                let tag = fileTag(language: language)
                guard chosenTags[tag] == nil, !unmet.contains(where: { $0.language == tag }) else { continue }
                let matching = candidates.indices.filter { matches(candidates[$0].rendition.language, language) }
                guard let best = best(matching, of: candidates) else {
                    let offered = Set(candidates.map(\.tag)).sorted()
                    unmet.append(SubtitleTrack(language: tag, name: "",
                                               error: "the stream offers no WebVTT subtitles in \(language)"
                                                   + (offered.isEmpty ? "" : " (it offers \(offered.joined(separator: ", ")))")))
                    continue
                }
                add(best)
            }
        }
        return Decision(chosen: chosen.map(\.rendition), unmet: unmet)
    }

    /// Whether a rendition's LANGUAGE answers a wanted one; `und` (undetermined) answers a
    /// rendition that says none.
    private static func matches(_ language: String?, _ wanted: String) -> Bool {
        if wanted.lowercased() == "und" { return fileTag(language: language) == "und" }
        return HLSAudioChoice.matches(language, wanted) || (fileTag(language: wanted) != "und" && fileTag(language: language) == fileTag(language: wanted))
    }

    /// Of renditions of one language (by index), the one a viewer reads the whole dialogue in.
    private static func best(_ indices: [Int], of candidates: [(rendition: HLSRendition, tag: String)]) -> Int? {
        indices.first { !candidates[$0].rendition.isForced && candidates[$0].rendition.isDefault }
            ?? indices.first { !candidates[$0].rendition.isForced } ?? indices.first
    }

    /// The language as it goes into a file name (`NAME.en.vtt`), which mpv and VLC read back:
    /// the language's two-letter ISO 639-1 code when it has one (`de-DE`, `deu` and `ger` are
    /// `de`: Debian 12's mpv loads `NAME.de.vtt` with the video, not `NAME.de-DE.vtt`), else its
    /// primary subtag of three letters, lowercased; `und`, undetermined, when it has neither. A
    /// playlist's `LANGUAGE="../../x"` names no path.
    public static func fileTag(_ rendition: HLSRendition) -> String {
        fileTag(language: rendition.language)
    }

    public static func fileTag(language: String?) -> String {
        guard let language else { return "und" }
        let tag = LanguageCode.iso639_1(language) ?? LanguageCode.primary(language) ?? "und"
        return deprecated[tag] ?? tag
    }

    /// ISO 639-1 codes withdrawn for others, which old packagers still write: Hebrew as `iw`
    /// made a file beside `he` (attacker trial).
    private static let deprecated = ["iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"]
}
