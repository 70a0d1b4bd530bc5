/// Text that came from the network (keys, titles, error pages) on its way to a terminal or a
/// notification: control characters could move a cursor or forge a line, bidirectional overrides
/// could make a title read as something else, and length is unbounded.
public enum UntrustedText {
    /// At most `limit` Unicode scalars of `text`, each control character and bidirectional
    /// formatting character replaced.
    public static func sanitized(_ text: String, limit: Int, replacingControlsWith replacement: Unicode.Scalar) -> String {
        // Printable ASCII, the usual case, has nothing to replace: no scalar properties to look up.
        if text.utf8.count <= limit, text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit).map {
            $0.properties.generalCategory == .control || isBidirectionalFormatting($0) ? replacement : $0
        }))
    }

    /// LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI, the marks LRM, RLM and ALM: what reorders the
    /// text around it. Other format characters (the joiners inside emoji) stay.
    public static func isBidirectionalFormatting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }
}
