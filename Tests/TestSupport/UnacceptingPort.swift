import UnitTestSupport
import Foundation

/// A TCP port on loopback that listens but never accepts, its backlog full: every further SYN
/// goes unanswered, as with a host behind a firewall that drops them, or a server so hung that its
/// queue is full. No `iptables` needed: a listening socket with a backlog of 0 holds one
/// connection nobody accepts, and the kernel drops the SYNs after it.
public final class UnacceptingPort: Sendable {
    public let port: Int
    private let descriptors: [Int32]

    public init() throws {
        let (listener, port) = try listenOnLoopback(backlog: 0)
        var address = loopback(port: port)
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
        self.port = port
        descriptors = [listener] + fillers
    }

    deinit {
        for fd in descriptors { close(fd) }
    }
}
