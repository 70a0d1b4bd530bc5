/// Which WebVTT renditions a chosen variant is fetched with. Pure: the master playlist's
/// renditions and the viewer's selection in, the renditions out.
///
/// - Only the group the variant names (`SUBTITLES="…"`) is a candidate, as players read it; a
///   rendition without a URI has nothing to fetch.
/// - Each becomes `NAME.LANG.vtt` beside the file, so one is chosen per language (`fileTag`):
///   of a language's renditions, one not FORCED (forced ones carry only the foreign-language
///   lines), then DEFAULT=YES, then the first.
/// - `--subtitles de` matches `deu` and `de-AT` as `--audio-lang` does (`HLSAudioChoice.matches`).
public enum SubtitleChoice {
    public static func choose(for variant: HLSVariant, among renditions: [HLSRendition],
                              selection: SubtitleSelection) -> [HLSRendition] {
        guard let group = variant.subtitleGroup, selection != .none else { return [] }
        let candidates = renditions.filter { $0.kind == .subtitles && $0.groupID == group && $0.url != nil }
        var chosen: [HLSRendition] = []
        func add(_ rendition: HLSRendition?) {
            guard let rendition, !chosen.contains(where: { fileTag($0).lowercased() == fileTag(rendition).lowercased() }) else { return }
            chosen.append(rendition)
        }
        switch selection {
        case .none:
            break
        case .all:
            for rendition in candidates {
                add(best(candidates.filter { fileTag($0).lowercased() == fileTag(rendition).lowercased() }))
            }
        case .languages(let wanted):
            for language in wanted {
                add(best(candidates.filter { HLSAudioChoice.matches($0.language, language) }))
            }
        }
        return chosen
    }

    /// Of renditions of one language, the one a viewer reads the whole dialogue in.
    private static func best(_ renditions: [HLSRendition]) -> HLSRendition? {
        renditions.first { !$0.isForced && $0.isDefault } ?? renditions.first { !$0.isForced } ?? renditions.first
    }

    /// The language as it goes into a file name (`NAME.en-GB.vtt`), which mpv and VLC read back:
    /// letters, digits and dashes of the LANGUAGE (`_` as `-`), at most 35 (the longest
    /// well-formed BCP 47 tag in practice); `und`, undetermined, when nothing is left. A
    /// playlist's `LANGUAGE="../../x"` names no path.
    public static func fileTag(_ rendition: HLSRendition) -> String {
        fileTag(language: rendition.language)
    }

    public static func fileTag(language: String?) -> String {
        let kept = (language ?? "").unicodeScalars.compactMap { scalar -> Character? in
            if scalar == "_" { return "-" }
            return scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-") ? Character(scalar) : nil
        }
        let tag = String(String(kept).prefix(35)).trimmingDashes
        return tag.isEmpty ? "und" : tag
    }
}

private extension String {
    var trimmingDashes: String {
        String(drop { $0 == "-" }.reversed().drop { $0 == "-" }.reversed())
    }
}
