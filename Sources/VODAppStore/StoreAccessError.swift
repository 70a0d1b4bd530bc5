import Foundation

/// A store, or DIR, this process may not look into.
public struct StoreAccessError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let errno: Int32

    public var description: String {
        "\(path): \(String(cString: strerror(errno)))"
    }
}
