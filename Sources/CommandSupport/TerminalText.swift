import VODAppBase

/// Text fitted to terminal columns, so that a progress line never wraps: a wrapped line would
/// make the display erase the wrong number of lines when it redraws.
enum TerminalText {
    /// `text` made safe (no control characters) and cut or padded to `columns` columns, with `…`
    /// where it was cut.
    static func fit(_ text: String, columns: Int, pad: Bool = true) -> String {
        let safe = UntrustedText.sanitized(text, limit: 1_000, replacingControlsWith: " ")
        var result = ""
        var used = 0
        let total = safe.reduce(0) { $0 + width(of: $1) }
        let room = total > columns ? columns - 1 : columns
        for character in safe {
            let w = width(of: character)
            guard used + w <= room else { break }
            result.append(character)
            used += w
        }
        if total > columns {
            result += "…"
            used += 1
        }
        return pad ? result + String(repeating: " ", count: max(0, columns - used)) : result
    }

    /// Columns a character takes: two for East Asian wide characters and emoji, none for
    /// combining marks and format characters, one otherwise.
    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let properties = first.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if properties.isEmojiPresentation { return 2 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
