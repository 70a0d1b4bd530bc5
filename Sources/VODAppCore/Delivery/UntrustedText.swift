/// Text that came from the network (keys, titles, error pages) on its way to a terminal or a
/// notification: control characters could move a cursor or forge a line, and length is unbounded.
public enum UntrustedText {
    /// At most `limit` Unicode scalars of `text`, each control character replaced.
    public static func sanitized(_ text: String, limit: Int, replacingControlsWith replacement: Unicode.Scalar) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit).map {
            $0.properties.generalCategory == .control ? replacement : $0
        }))
    }
}
