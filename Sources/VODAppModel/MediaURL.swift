import CCurl
import Foundation

/// An absolute http or https URL, parsed by libcurl's own URL parser so that what is validated is
/// exactly what will be fetched.
///
/// URLs are taken as people paste them, as browsers and aria2c take them: surrounding whitespace
/// is dropped, a space or a non-ASCII character in the path, query or fragment is percent-encoded
/// (UTF-8), and a host name in Unicode (`bücher.example`) is fetched by its punycode
/// (`xn--bcher-kva.example`).
public struct MediaURL: Sendable, Equatable {
    /// The URL as libcurl normalised it, host in punycode: what is fetched.
    public let absoluteString: String
    /// The path, percent-encoded.
    public let path: String
    /// Whether it is fetched over TLS; redirects from it must stay on https.
    public let isHTTPS: Bool
    /// `scheme://host:port`, lowercased, the port always written: what headers and cookies are
    /// scoped to.
    public let origin: String
    /// The host name, lowercased and in punycode, or the IP address.
    public let host: String
    /// The port, the scheme's default when the URL names none.
    public let port: Int
    /// `host:port`: what a connection is made to, and what the per-host limit counts.
    package var endpoint: String { host + ":" + String(port) }
    /// The URL with a password in it replaced by `***`: what reports, logs and the store show.
    public let redacted: String
    /// Whether the URL carries a password, which `redacted` (and so the store) does not keep.
    public let hasPassword: Bool

    /// Why a string is not a fetchable media URL.
    public enum Rejection: Error, Equatable, Sendable, CustomStringConvertible {
        case malformed(String)
        case unsupportedScheme(String)
        case noHost

        public var description: String {
            switch self {
            case .malformed(let detail): "url \(detail)"
            case .unsupportedScheme(let scheme): "url scheme \"\(scheme)\" is not http or https"
            case .noHost: "url has no host"
            }
        }
    }

    public init(_ string: String) throws(Rejection) {
        guard let handle = curl_url() else { throw .malformed("cannot be parsed: out of memory") }
        defer { curl_url_cleanup(handle) }
        let text = Self.encodingUnsafeCharacters(Self.trimmed(string))
        // No CURLU_GUESS_SCHEME and no CURLU_DEFAULT_SCHEME: a relative or scheme-less string is
        // refused rather than guessed at.
        let code = curl_url_set(handle, CURLUPART_URL, text, UInt32(CURLU_NON_SUPPORT_SCHEME))
        guard code == CURLUE_OK else { throw .malformed(Self.explain(code, text)) }
        guard let scheme = Self.part(handle, CURLUPART_SCHEME)?.lowercased() else {
            throw .malformed("has no scheme: it must start with http:// or https://")
        }
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }
        guard let host = Self.punycodeHost(handle), !host.isEmpty else {
            if let unicode = Self.part(handle, CURLUPART_HOST), !unicode.isEmpty {
                throw .malformed("has a host name that is not a valid international domain name")
            }
            throw .noHost
        }
        // Without CURLU_PUNYCODE libcurl 7.88 hands back the Unicode host, which its own transfer
        // then refuses ("URL using bad/illegal format").
        guard curl_url_set(handle, CURLUPART_HOST, host, 0) == CURLUE_OK,
              let url = Self.part(handle, CURLUPART_URL) else {
            throw .malformed("has a host name that is not valid: \(host)")
        }
        absoluteString = url
        isHTTPS = scheme == "https"
        path = Self.part(handle, CURLUPART_PATH) ?? "/"
        let port = Self.part(handle, CURLUPART_PORT, flags: CURLU_DEFAULT_PORT) ?? (isHTTPS ? "443" : "80")
        guard port != "0" else { throw .malformed("has a port that is not a number from 1 to 65535") }
        self.host = host.lowercased()
        self.port = Int(port) ?? (isHTTPS ? 443 : 80)
        origin = scheme + "://" + self.host + ":" + port
        hasPassword = Self.part(handle, CURLUPART_PASSWORD) != nil
        if hasPassword, curl_url_set(handle, CURLUPART_PASSWORD, "***", 0) == CURLUE_OK,
           let shown = Self.part(handle, CURLUPART_URL) {
            redacted = shown
        } else {
            redacted = url
        }
    }

    /// `text` with what looks like a password in its authority (`scheme://user:PASSWORD@host`)
    /// replaced by `***`: for a URL libcurl could not parse, which is still shown in the report.
    public static func redacting(_ text: String) -> String {
        // After "scheme://", or "//", or from the start: a URL pasted without its scheme
        // (`alice:pw@host/x`) carries its password all the same.
        let start = text.range(of: "://")?.upperBound ?? (text.hasPrefix("//") ? text.index(text.startIndex, offsetBy: 2) : text.startIndex)
        let authority = text[start...].prefix { !"/?#".contains($0) }
        guard let at = authority.lastIndex(of: "@"),
              let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<authority.index(after: colon)]) + "***" + String(text[at...])
    }

    /// What identifies the resource whatever its query: scheme, host, port and path. A signed URL
    /// whose token changes on every push (`…/a.mp4?token=…`) still names the same file, so bytes
    /// kept from one push resume under the next (guarded by `If-Range`, so a changed file comes
    /// whole).
    public var resource: String { origin + path }

    /// Whether `other` is on the same scheme, host and port: where headers and cookies may go.
    public func isSameOrigin(as other: MediaURL) -> Bool { origin == other.origin }

    /// A reference (a playlist's URI) resolved against this URL by libcurl, as a `MediaURL`.
    public func resolving(_ reference: String) throws(Rejection) -> MediaURL {
        guard let handle = curl_url() else { throw .malformed("cannot be parsed: out of memory") }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, absoluteString, UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK else {
            throw .malformed("cannot be parsed")
        }
        let text = Self.encodingUnsafeCharacters(Self.trimmed(reference))
        let code = curl_url_set(handle, CURLUPART_URL, text, UInt32(CURLU_NON_SUPPORT_SCHEME))
        guard code == CURLUE_OK, let resolved = Self.part(handle, CURLUPART_URL) else {
            throw .malformed(Self.explain(code, text))
        }
        return try MediaURL(resolved)
    }

    private static func punycodeHost(_ handle: OpaquePointer) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        return owned(vod_url_get_punycode(handle, CURLUPART_HOST, &value), value)
    }

    private static func part(_ handle: OpaquePointer, _ which: CURLUPart, flags: Int32 = 0) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        return owned(curl_url_get(handle, which, &value, UInt32(flags)), value)
    }

    /// The text of a part curl_url_get returned, freed whatever the code: libcurl 7.88 leaves the
    /// part allocated in `value` when it fails to convert a host to punycode (the fuzzer found
    /// the leak), so the pointer is the caller's even on failure.
    private static func owned(_ code: CURLUcode, _ value: UnsafeMutablePointer<CChar>?) -> String? {
        defer { if let value { curl_free(value) } }
        guard code == CURLUE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// ASCII whitespace around a pasted URL is not part of it.
    private static func trimmed(_ string: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        var text = Substring(string)
        while let first = text.first, isSpace(first) { text = text.dropFirst() }
        while let last = text.last, isSpace(last) { text = text.dropLast() }
        return text
    }

    /// Percent-encodes, after the authority, what may not stand in a URL as it is (a space,
    /// `"<>\^`{|}`, control characters, and every non-ASCII byte of the UTF-8), as the URL
    /// Standard's browsers do; an existing `%XX` is left alone. The authority is kept, so that a
    /// Unicode host name can become punycode.
    static func encodingUnsafeCharacters(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var authorityEnd = 0
        if let schemeEnd = text.range(of: "://") {
            let start = text.utf8.distance(from: text.startIndex, to: schemeEnd.upperBound)
            authorityEnd = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        }
        let unsafe: Set<UInt8> = Set(" \"<>\\^`{|}".utf8)
        var result = bytes[..<authorityEnd].map { $0 }
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes[authorityEnd...] {
            if byte >= 0x80 || byte < 0x20 || byte == 0x7F || unsafe.contains(byte) {
                result += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// libcurl's parse errors, said so that a person knows what to fix.
    private static func explain(_ code: CURLUcode, _ text: String) -> String {
        switch code {
        case CURLUE_NO_SCHEME, CURLUE_BAD_SCHEME,
             CURLUE_MALFORMED_INPUT where !text.contains("://"),
             CURLUE_BAD_SLASHES where !text.contains("://"):
            "is not an absolute URL: it must start with http:// or https://"
        case CURLUE_NO_HOST: "has no host"
        case CURLUE_BAD_HOSTNAME: "has a host name that is not valid"
        case CURLUE_BAD_IPV6: "has an IPv6 address that is not valid"
        case CURLUE_BAD_PORT_NUMBER: "has a port that is not a number from 1 to 65535"
        case CURLUE_BAD_LOGIN, CURLUE_BAD_USER, CURLUE_BAD_PASSWORD: "has a user name or password that is not valid"
        case CURLUE_LACKS_IDN: "has a Unicode host name, and this libcurl cannot convert it"
        case CURLUE_BAD_SLASHES: "has the wrong number of slashes after the scheme"
        default: "cannot be parsed (\(String(cString: curl_url_strerror(code))))"
        }
    }

    /// The extension of the path's last component, when it is a short alphanumeric one
    /// (`mp4`, `webm`, `m4v`); anything else is not trusted in a file name.
    public var fileExtension: String? {
        guard let last = path.split(separator: "/").last, let dot = last.lastIndex(of: ".") else {
            return nil
        }
        let ext = last[last.index(after: dot)...]
        return Self.isPlainExtension(ext) ? ext.lowercased() : nil
    }

    /// 1 to 8 ASCII letters or digits: the only extensions trusted in a file name, whether they
    /// come from a URL or are read back from a name in DIR.
    package static func isPlainExtension(_ text: Substring) -> Bool {
        (1...8).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
