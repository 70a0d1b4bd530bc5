import ArgumentParser

/// A comma-separated list of language tags, in order of preference (`--audio-lang en,de`).
public struct LanguageList: Sendable, Equatable {
    public let tags: [String]

    /// Each tag as BCP 47 spells them (letters, digits and `-`, a letter first, at most 35
    /// characters: `en`, `de-CH`, `yue-Hant`); empty entries are an error, not skipped.
    @Sendable public static func parse(_ text: String) throws -> LanguageList {
        let tags = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        for tag in tags {
            guard tag.wholeMatch(of: /[A-Za-z][A-Za-z0-9-]{0,34}/) != nil else {
                throw ValidationError("must be language tags separated by commas (en,de-CH), not '\(text)'")
            }
        }
        return LanguageList(tags: tags)
    }
}
