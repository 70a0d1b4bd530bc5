import ArgumentParser
import VODAppStreams

/// `--subtitles LANGS|all|none`: the languages wanted as a list of tags (`LanguageList`), or
/// every language offered, or none.
public enum SubtitleOption {
    @Sendable public static func parse(_ text: String) throws -> SubtitleSelection {
        switch text.lowercased() {
        case "none": return .none
        case "all": return .all
        default:
            do {
                let tags = try LanguageList.parse(text).tags
                // `all,en` is a mistake, not a language called "all".
                guard !tags.contains(where: { ["all", "none"].contains($0.lowercased()) }) else { throw ValidationError("") }
                return .languages(tags)
            } catch {
                throw ValidationError("must be all, none, or language codes separated by commas, as en,de-CH (ISO 639: two or three "
                                      + "letters, then a region or script), not '\(text)'")
            }
        }
    }
}
