/// How a payload reached vodapp, for the delivery log.
public enum DeliverySource: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case standardInput
    case udp(peer: String)
    case http(peer: String)
    case poll(url: String)
    /// A message on an MQTT subscription, by its topic.
    case mqtt(topic: String)

    /// The kind, as the store keeps it: `file`, `stdin`, `udp`, `http`, `poll` or `mqtt`.
    public var kind: String {
        switch self {
        case .file: "file"
        case .standardInput: "stdin"
        case .udp: "udp"
        case .http: "http"
        case .poll: "poll"
        case .mqtt: "mqtt"
        }
    }

    /// The file, peer or URL, when there is one.
    public var detail: String? {
        switch self {
        case .file(let path): path
        case .standardInput: nil
        case .udp(let peer), .http(let peer): peer
        case .poll(let url): url
        case .mqtt(let topic): topic
        }
    }

    public var description: String {
        detail.map { "\(kind) \($0)" } ?? kind
    }
}
