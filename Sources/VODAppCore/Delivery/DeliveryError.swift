/// Why a delivery could not run at all.
public enum DeliveryError: Error, Equatable, Sendable, CustomStringConvertible {
    case directoryUnusable(path: String, reason: String)

    public var description: String {
        switch self {
        case .directoryUnusable(let path, let reason): "cannot use \(path) for media: \(reason)"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .directoryUnusable: .directoryUnusable
        }
    }
}
