/// A header line a user asks to send with media requests (`--header 'Name: value'`).
public enum RequestHeader {
    /// Headers libcurl or vodapp set themselves, or that would change what a response means:
    /// a user's value would break ranges, framing or the connection.
    static let reserved: Set<String> = ["host", "range", "if-range", "content-length", "transfer-encoding", "connection",
                                        "accept-encoding", "expect", "te", "upgrade"]

    /// Why `line` cannot be sent, or nil when it can.
    public static func problem(with line: String) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return "must be 'Name: value'" }
        let name = line[..<colon]
        guard isName(name) else {
            return "the name must be letters, digits and -, with no space before the colon"
        }
        let value = line[line.index(after: colon)...]
        guard !value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else {
            return "the value must be one line of text"
        }
        if reserved.contains(name.lowercased()) {
            return "vodapp sets \(name) itself"
        }
        return nil
    }

    /// The name of a header line, for an error message that must not show its value (a token).
    /// What is not a header name is not shown either: `Authorization Bearer abc:x` or
    /// `X-Key=abc` hold the secret before their colon.
    public static func shownName(of line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return "(no colon)" }
        let name = line[..<colon]
        guard !name.isEmpty else { return "(no name): …" }
        guard isName(name) else { return "(not a header name): …" }
        return String(name.prefix(60)) + ": …"
    }

    private static let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// An HTTP field name: one token (RFC 9110).
    static func isName(_ name: Substring) -> Bool {
        !name.isEmpty && name.allSatisfy { tokenCharacters.contains($0) }
    }
}
