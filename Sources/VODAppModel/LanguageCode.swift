import Foundation

/// A rendition's LANGUAGE (BCP 47: `en`, `de-CH`) as the three-letter ISO 639-2 code an MP4
/// track's language is (`eng`, `deu`): a player shows it and picks tracks by it. libavformat's MP4
/// muxer takes only three letters; `en` became `und`, and the new-user trial's German file said
/// nothing of its language.
///
/// Two-letter codes are looked up in Debian's ISO 639-2 table (`iso-codes`), not a copy of it
/// kept here; three-letter ones are already that.
public enum LanguageCode {
    public static func iso639_2(_ tag: String) -> String? {
        guard let primary = primary(tag) else { return nil }
        switch primary.count {
        case 3: return primary == "und" ? nil : table.terminology[primary] ?? primary
        case 2: return table.threeLetter[primary]
        default: return nil
        }
    }

    /// The two-letter ISO 639-1 code of a tag (`deu`, `ger` and `de-AT` → `de`), when the
    /// language has one: the code a subtitle file's name carries, which every player reads.
    public static func iso639_1(_ tag: String) -> String? {
        guard let primary = primary(tag) else { return nil }
        switch primary.count {
        case 2: return table.threeLetter[primary] != nil || table.threeLetter.isEmpty ? primary : nil
        case 3: return table.twoLetter[table.terminology[primary] ?? primary]
        default: return nil
        }
    }

    /// The primary subtag, lowercased, when it is two or three ASCII letters.
    public static func primary(_ tag: String) -> String? {
        let primary = String(tag.prefix { $0.isLetter }).lowercased()
        guard (2...3).contains(primary.count), primary.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }) else { return nil }
        return primary
    }

    /// Where Debian's `iso-codes` keeps ISO 639-2, with each language's two-letter code.
    static let tablePath = "/usr/share/iso-codes/json/iso_639-2.json"

    /// ISO 639-1 to ISO 639-2/T (`de` → `deu`, the terminology code MP4 uses, not the
    /// bibliographic `ger`), back, and the bibliographic codes to the terminology ones (`ger` →
    /// `deu`); empty when the table is not installed.
    private static let table: (threeLetter: [String: String], twoLetter: [String: String], terminology: [String: String]) = {
        struct File: Decodable {
            struct Language: Decodable {
                let alpha_2: String?
                let alpha_3: String
                let bibliographic: String?
            }
            let languages: [Language]
            enum CodingKeys: String, CodingKey { case languages = "639-2" }
        }
        guard let data = FileManager.default.contents(atPath: tablePath),
              let file = try? JSONDecoder().decode(File.self, from: data) else { return ([:], [:], [:]) }
        let pairs = file.languages.compactMap { language in language.alpha_2.map { ($0, language.alpha_3) } }
        return (Dictionary(pairs, uniquingKeysWith: { first, _ in first }),
                Dictionary(pairs.map { ($1, $0) }, uniquingKeysWith: { first, _ in first }),
                Dictionary(file.languages.compactMap { language in language.bibliographic.map { ($0, language.alpha_3) } },
                           uniquingKeysWith: { first, _ in first }))
    }()
}
