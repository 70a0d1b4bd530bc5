import VODAppCore

/// Why `vodapp listen` could not start.
public enum ListenerError: Error, Sendable, CustomStringConvertible {
    case cannotBind(protocol: String, address: ListenAddress, reason: String)
    case directoryUnusable(DeliveryError)

    public var description: String {
        switch self {
        case .cannotBind(let proto, let address, let reason): "cannot listen on \(proto) \(address): \(reason)"
        case .directoryUnusable(let error): error.description
        }
    }
}
