import Foundation

/// Sizes as people write them on a command line: `20971520`, `20M`, `512K`, `1G`, `1.5M`.
/// As in GNU coreutils (`df`, `dd`, `sort -S`): K, M, G and T, alone or with `iB`, are binary
/// multiples (KiB, MiB, GiB, as in the contract), and KB, MB, GB and TB decimal ones (a
/// thousand, a million, …); a trailing `B` after a number is bytes.
public enum ByteSize {
    /// The byte count, or nil when `text` is not a size.
    public static func parse(_ text: String) -> Int64? {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        var base: Double = 1024
        if digits.hasSuffix("IB"), digits.count > 2 {
            digits.removeLast(2)
        } else if digits.hasSuffix("B"), digits.count > 1 {
            digits.removeLast()
            // "KB", "MB": a unit before the B makes it decimal; "100B" is just bytes.
            if let unit = digits.last, unit.isLetter { base = 1000 }
        }
        var multiplier: Double = 1
        if let unit = digits.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][String(unit)] {
            multiplier = pow(base, Double(power))
            digits.removeLast()
        }
        // A fraction needs a unit: "1.5" bytes is no size, and rounding it to 1 would drop
        // everything quietly.
        guard !digits.isEmpty, digits.allSatisfy({ $0.isNumber || $0 == "." }), multiplier > 1 || !digits.contains("."),
              let value = Double(digits), value >= 0 else { return nil }
        let bytes = (value * multiplier).rounded(.down)
        guard bytes < Double(Int64.max) else { return nil }
        return Int64(bytes)
    }

    /// Two sizes compared in one sentence ("has X free, under Y"): in the short form, unless it
    /// would show different sizes as the same, then in bytes.
    public static func format(_ first: Int64, against second: Int64) -> (String, String) {
        let short = (format(first), format(second))
        return short.0 == short.1 && first != second ? ("\(first) bytes", "\(second) bytes") : short
    }

    /// A short human form: `512 B`, `1.5 KiB`, `20.0 MiB`.
    public static func format(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
