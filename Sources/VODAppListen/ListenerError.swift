import Foundation
import NIOCore
import SystemPackage
import VODAppMediaDirectory
import VODAppBase

/// Why `vodapp listen` could not start.
public enum ListenerError: Error, Sendable, CustomStringConvertible {
    case cannotBind(protocol: String, address: ListenAddress, reason: String)
    case directoryUnusable(MediaDirectoryError)

    public var description: String {
        switch self {
        case .cannotBind(let proto, let address, let reason): "cannot listen on \(proto) \(address): \(reason)"
        case .directoryUnusable(let error): error.description
        }
    }

    /// Why a bind failed, as the system says it ("Address already in use"), and what to do about
    /// it: NIO's own text names its internal function and the errno.
    static func reason(_ error: any Error, protocol proto: String) -> String {
        bindFailure(error, option: "--\(proto)", orElse: "--no-\(proto)")
    }

    /// Why binding `option`'s address failed, in the system's words and with what to do:
    /// `orElse` names a way around it, if there is one.
    public static func bindFailure(_ error: any Error, option: String, orElse alternative: String? = nil) -> String {
        guard let error = error as? IOError else { return "\(error)" }
        let errno = Errno(rawValue: error.errnoCode)
        switch errno {
        case .addressInUse:
            return "\(errno), by another vodapp or another program; stop it, or choose another port with \(option)"
                + (alternative.map { " (or \($0))" } ?? "")
        case .permissionDenied:
            return "\(errno): ports below 1024 need root; choose a port above 1023 with \(option)"
        case .addressNotAvailable:
            return "\(errno): no network interface of this machine has that address; use 127.0.0.1, 0.0.0.0 or one of its addresses with \(option)"
        default:
            return errno.description
        }
    }
}

extension ListenerError: ExitStatusProviding {
    public var exitStatus: ExitStatus {
        switch self {
        case .cannotBind: .unavailable
        case .directoryUnusable: .directoryUnusable
        }
    }
}
