import Foundation

/// Where `vodapp-push send` delivers: a UDP receiver (the simulator protocol) or an HTTP endpoint.
public enum PushDestination: Sendable, Equatable, CustomStringConvertible {
    case udp(host: String, port: Int)
    case http(URL)

    public static let defaultUDP = PushDestination.udp(host: "127.0.0.1", port: 9930)

    /// Parses `udp://HOST:PORT`, or an `http://` or `https://` URL; nil for anything else.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty
        else { return nil }
        switch scheme {
        case "udp":
            guard let port = components.port, (1...65535).contains(port),
                  components.path.isEmpty || components.path == "/", components.query == nil
            else { return nil }
            self = .udp(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port)
        case "http", "https":
            guard let url = components.url else { return nil }
            self = .http(url)
        default:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .udp(let host, let port): host.contains(":") ? "udp://[\(host)]:\(port)" : "udp://\(host):\(port)"
        case .http(let url): url.absoluteString
        }
    }
}
