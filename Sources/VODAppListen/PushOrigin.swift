/// Where a push came from, for the log and the listener's output.
public enum PushOrigin: Sendable, Equatable, CustomStringConvertible {
    case udp(peer: String)
    case http(peer: String)

    public var description: String {
        switch self {
        case .udp(let peer): "udp \(peer)"
        case .http(let peer): "http \(peer)"
        }
    }
}
