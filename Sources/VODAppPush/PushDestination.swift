import Foundation
import VODAppMQTT

/// Where `vodapp-push send` delivers: a UDP receiver (the simulator protocol), an HTTP endpoint,
/// or an MQTT broker's topic.
public enum PushDestination: Sendable, Equatable, CustomStringConvertible {
    case udp(host: String, port: Int)
    case http(URL)
    case mqtt(BrokerURL)

    public static let defaultUDP = PushDestination.udp(host: "127.0.0.1", port: 9930)

    /// Parses `udp://HOST:PORT`, an `http://` or `https://` URL, or `mqtt[s]://…/topic`; nil for
    /// anything else.
    public init?(_ text: String) {
        if let broker = try? Self.broker(text) {
            self = .mqtt(broker)
            return
        }
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
        case .mqtt(let broker): broker.description
        }
    }

    /// The broker and topic of an `mqtt://` or `mqtts://` destination, nil for another scheme.
    /// - Throws: `BrokerURLError` for a broker URL that is wrong, so that its reason is shown.
    public static func broker(_ text: String) throws(BrokerURLError) -> BrokerURL? {
        let scheme = text.prefix { $0 != ":" }.lowercased()
        guard scheme == "mqtt" || scheme == "mqtts" else { return nil }
        return try BrokerURL(text, for: .publish)
    }
}
