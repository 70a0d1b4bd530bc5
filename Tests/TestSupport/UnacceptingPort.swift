import Foundation

/// A TCP port on loopback that listens but never accepts, its backlog full: every further SYN
/// goes unanswered, as with a host behind a firewall that drops them, or a server so hung that its
/// queue is full. No `iptables` needed: a listening socket with a backlog of 0 holds one
/// connection nobody accepts, and the kernel drops the SYNs after it.
public final class UnacceptingPort: Sendable {
    public let port: Int
    private let descriptors: [Int32]

    public init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 0) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let fillers = (0..<3).map { _ in
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return fd
        }
        // The handshake of the one connection the queue holds completes in microseconds on
        // loopback; after it, the queue is full.
        usleep(100_000)
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptors = [listener] + fillers
    }

    deinit {
        for fd in descriptors { close(fd) }
    }
}
