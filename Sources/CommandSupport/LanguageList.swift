import ArgumentParser

/// A comma-separated list of language tags, in order of preference (`--audio-lang en,de`).
public struct LanguageList: Sendable, Equatable {
    public let tags: [String]

    /// Each tag as BCP 47 spells them (`en`, `de-CH`, `yue-Hant`), or as `$LANG` does
    /// (`de_DE`, `de_DE.UTF-8`), whose language is what counts: a primary subtag of two or three
    /// letters, as ISO 639 codes are. A name (`german`) is an error, as are empty entries: taken,
    /// it matched nothing and the default rendition came silently (the new-user trial).
    @Sendable public static func parse(_ text: String) throws -> LanguageList {
        let tags = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        for tag in tags {
            guard tag.wholeMatch(of: /[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*(\.[A-Za-z0-9-]{1,20})?(@[A-Za-z0-9]{1,20})?/) != nil else {
                throw ValidationError("must be language codes separated by commas, as en,de-CH or de_DE (ISO 639: two or three "
                                      + "letters, then a region or script), not '\(text)'")
            }
        }
        return LanguageList(tags: tags)
    }
}
