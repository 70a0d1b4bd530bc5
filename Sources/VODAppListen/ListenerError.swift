import Foundation
import NIOCore
import SystemPackage
import VODAppMediaDirectory

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

    /// Why a bind failed, as the system says it ("Address already in use"): NIO's own text names
    /// its internal function and the errno.
    static func reason(_ error: any Error) -> String {
        if let error = error as? IOError { return Errno(rawValue: error.errnoCode).description }
        return "\(error)"
    }
}
