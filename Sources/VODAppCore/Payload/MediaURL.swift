import CCurl

/// An absolute http or https URL, parsed by libcurl's own URL parser so that what is validated is
/// exactly what will be fetched.
public struct MediaURL: Sendable, Equatable {
    /// The URL as libcurl normalised it.
    public let absoluteString: String
    /// The path, percent-encoded as it was given.
    public let path: String
    /// Whether it is fetched over TLS; redirects from it must stay on https.
    public let isHTTPS: Bool

    /// Why a string is not a fetchable media URL.
    public enum Rejection: Error, Equatable, Sendable, CustomStringConvertible {
        case malformed(String)
        case unsupportedScheme(String)
        case noHost

        public var description: String {
            switch self {
            case .malformed(let detail): "url is not an absolute URL (\(detail))"
            case .unsupportedScheme(let scheme): "url scheme \"\(scheme)\" is not http or https"
            case .noHost: "url has no host"
            }
        }
    }

    public init(_ string: String) throws(Rejection) {
        guard let handle = curl_url() else { throw .malformed("out of memory") }
        defer { curl_url_cleanup(handle) }
        // No CURLU_GUESS_SCHEME and no CURLU_DEFAULT_SCHEME: a relative or scheme-less string is
        // refused rather than guessed at.
        let code = curl_url_set(handle, CURLUPART_URL, string, UInt32(CURLU_NON_SUPPORT_SCHEME))
        guard code == CURLUE_OK else {
            throw .malformed(String(cString: curl_url_strerror(code)))
        }
        guard let scheme = Self.part(handle, CURLUPART_SCHEME)?.lowercased() else {
            throw .malformed("no scheme")
        }
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }
        guard let host = Self.part(handle, CURLUPART_HOST), !host.isEmpty else { throw .noHost }
        guard let url = Self.part(handle, CURLUPART_URL) else { throw .malformed("cannot be rebuilt") }
        absoluteString = url
        isHTTPS = scheme == "https"
        path = Self.part(handle, CURLUPART_PATH) ?? "/"
    }

    private static func part(_ handle: OpaquePointer, _ which: CURLUPart) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, which, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
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
    static func isPlainExtension(_ text: Substring) -> Bool {
        (1...8).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
