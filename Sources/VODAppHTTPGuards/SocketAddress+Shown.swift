import NIOCore

extension SocketAddress {
    /// A peer or a listening address as logs and reports show it: `127.0.0.1:9930`,
    /// `[::1]:9930`.
    package var shown: String {
        guard let ip = ipAddress, let port else { return "\(self)" }
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}
