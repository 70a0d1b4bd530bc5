import VODAppModel

/// Where `--header` lines may go (`--header-host`): one origin (scheme, host and port), or a
/// domain and its subdomains on one scheme and port. Parsed once from the user's words and
/// compared with each request's URL here, so the rule that decides where credentials go is one
/// value, tested as such (it was a string the executable built, `https://.host:443`, and the
/// engine took apart again).
///
/// The scheme and the port count: a payload naming another port of the same host, or plain
/// http, must not receive what the user meant for one server.
public struct HeaderScope: Sendable, Hashable, CustomStringConvertible {
    public let isHTTPS: Bool
    /// Lowercased, in punycode, as `MediaURL` has it.
    public let host: String
    public let port: Int
    /// A leading dot: the host and every name under it.
    public let includesSubdomains: Bool

    /// `[scheme://][.]host[:port]`: https, and the scheme's default port, unless given. Nil for
    /// anything else: another scheme, a path, a query, a user, an empty host.
    public init?(_ text: String) {
        var rest = Substring(text)
        var scheme = "https"
        if let separator = rest.range(of: "://") {
            scheme = rest[..<separator.lowerBound].lowercased()
            rest = rest[separator.upperBound...]
        }
        guard scheme == "http" || scheme == "https" else { return nil }
        includesSubdomains = rest.hasPrefix(".")
        if includesSubdomains { rest = rest.dropFirst() }
        guard !rest.isEmpty, !rest.contains(where: { "/?#@ ".contains($0) }),
              let url = try? MediaURL(scheme + "://" + rest + "/"), url.path == "/" else { return nil }
        isHTTPS = url.isHTTPS
        host = url.host
        port = url.port
    }

    /// Whether `url` is in the scope: its scheme and port, and its host or, for a domain, a
    /// name under it.
    public func admits(_ url: MediaURL) -> Bool {
        guard url.isHTTPS == isHTTPS, url.port == port else { return false }
        return url.host == host || (includesSubdomains && url.host.hasSuffix("." + host))
    }

    /// As the user would write it in full: `https://.example.com:443`.
    public var description: String {
        (isHTTPS ? "https://" : "http://") + (includesSubdomains ? "." : "") + host + ":" + String(port)
    }
}

extension [HeaderScope] {
    /// Whether `--header` may go to `url`: a scope admits it, or none was given and every item's
    /// own origin gets them (the request's own rule, `TransferRequest.carriesCredentials`).
    package func admit(_ url: MediaURL) -> Bool {
        isEmpty || contains { $0.admits(url) }
    }
}
