import VODAppModel

/// Which audio rendition a chosen variant is fetched with. Pure: the master playlist's
/// renditions and the viewer's languages in, a rendition (or none) out.
///
/// - Only the group the variant names (`AUDIO="…"`) is a candidate: another group's audio may not
///   fit the variant (its codec, its bit rate).
/// - Within it: the first of `preferred` languages that a rendition has (`--audio-lang`, in order
///   of preference); else the `DEFAULT=YES` rendition; else the first whose language matches the
///   system's (`$LANG`); else the first.
/// - A rendition without a URI is in the variant's own segments: nothing more to fetch (nil).
public enum HLSAudioChoice {
    /// The rendition to fetch beside the variant, or nil when the variant's own segments carry
    /// its audio (no group, an empty group, or the chosen rendition has no URI).
    public static func choose(for variant: HLSVariant, among renditions: [HLSRendition],
                              preferred: [String] = [], systemLanguage: String? = nil) -> HLSRendition? {
        guard let group = variant.audioGroup else { return nil }
        let candidates = renditions.filter { $0.kind == .audio && $0.groupID == group }
        guard !candidates.isEmpty else { return nil }
        let chosen = preferred.lazy.compactMap { wanted in candidates.first { matches($0.language, wanted) } }.first
            ?? candidates.first { $0.isDefault }
            ?? systemLanguage.flatMap { system in candidates.first { matches($0.language, system) } }
            ?? candidates[0]
        return chosen.url == nil ? nil : chosen
    }

    /// Whether a rendition's LANGUAGE answers a wanted language: the same primary subtag,
    /// whatever the case (`en` answers `en-GB`, `EN` and `en_US.UTF-8` as `$LANG` has it), or
    /// the same language by its two- and three-letter codes (`de` answers `deu`, which DASH
    /// manifests from ffmpeg carry); a wanted tag with a region prefers nothing over its
    /// primary subtag.
    package static func matches(_ language: String?, _ wanted: String) -> Bool {
        guard let language, !primary(wanted).isEmpty else { return false }
        if primary(language) == primary(wanted) { return true }
        guard let code = LanguageCode.iso639_2(wanted) else { return false }
        return LanguageCode.iso639_2(language) == code
    }

    private static func primary(_ tag: String) -> String {
        String(tag.prefix { $0.isLetter }).lowercased()
    }
}
