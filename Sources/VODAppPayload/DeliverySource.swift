/// How a payload reached vodapp, for the delivery log.
public enum DeliverySource: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case standardInput
    case udp(peer: String)
    case http(peer: String)
    case poll(url: String)
    /// A message on an MQTT subscription, by its topic.
    case mqtt(topic: String)
    /// A listener trying unfinished items again on its own, when their next try was due: no push.
    case retry
    /// `vodapp get URL…`: URLs on the command line.
    case commandLine

    /// The kind, as the store keeps it: `file`, `stdin`, `udp`, `http`, `poll`, `mqtt`, `retry` or `get`.
    public var kind: String {
        switch self {
        case .file: "file"
        case .standardInput: "stdin"
        case .udp: "udp"
        case .http: "http"
        case .poll: "poll"
        case .mqtt: "mqtt"
        case .retry: "retry"
        case .commandLine: "get"
        }
    }

    /// The file, peer or URL, when there is one.
    public var detail: String? {
        switch self {
        case .file(let path): path
        case .standardInput, .retry, .commandLine: nil
        case .udp(let peer), .http(let peer): peer
        case .poll(let url): url
        case .mqtt(let topic): topic
        }
    }

    public var description: String {
        detail.map { "\(kind) \($0)" } ?? kind
    }
}
