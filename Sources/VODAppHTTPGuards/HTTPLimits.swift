import Foundation
import VODAppPayload

/// What the HTTP receiver lets peers hold, whatever they do: its connections, how long a request
/// may take to arrive, and the request bodies buffered at once.
///
/// An attacker once held 1,500 connections that each declared a 1 MiB body and sent one byte
/// less: every body was buffered before its signature could be checked, the listener grew to
/// 2 GB and stayed there, and past the descriptor limit `/health` stopped answering and the
/// process died. Each limit here answers one part of that.
public struct HTTPLimits: Sendable, Equatable {
    /// The most connections open at once. Over it, the connection that has waited longest for its
    /// request makes room (a slow or idle peer is the one to lose), so `/health` and real pushes
    /// still get in; when every connection has a request being answered, the new one is closed.
    public var maximumConnections: Int
    /// From a connection's start, or the end of its previous answer, to the end of its request's
    /// headers. An idle kept-alive connection is closed after it too.
    public var headerTimeout: Duration
    /// From a request's headers to the end of its body, however the bytes trickle.
    public var bodyTimeout: Duration
    /// The most request-body bytes held at once over all requests; a request that would pass it
    /// is answered 503 before its body is read. Each request declaring more than `smallBody`
    /// reserves its declared length (the payload maximum when it declares none).
    public var maximumBufferedBytes: Int

    public static let defaultHeaderTimeout: Duration = .seconds(5)
    public static let defaultBodyTimeout: Duration = .seconds(10)
    /// Eight payloads of the largest size at once: 8 MiB.
    public static let defaultMaximumBufferedBytes = 8 * Payload.maximumSize
    /// A body declared at most this large needs no share of `maximumBufferedBytes`: real pushes
    /// are this small, and the connection cap bounds what all of them can hold.
    public static let smallBody = 16 * 1024
    /// A push receiver needs few connections at once; this keeps their memory small (tens of MB)
    /// even where the descriptor limit is high.
    public static let connectionCeiling = 1024
    /// The fewest connections the receiver allows, however low the descriptor limit.
    public static let connectionFloor = 16

    public init(maximumConnections: Int, headerTimeout: Duration = defaultHeaderTimeout,
                bodyTimeout: Duration = defaultBodyTimeout, maximumBufferedBytes: Int = defaultMaximumBufferedBytes) {
        self.maximumConnections = maximumConnections
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.maximumBufferedBytes = maximumBufferedBytes
    }

    /// The limits for a process that may open `descriptors` files at once and runs `transfers`
    /// transfers side by side: connections stay below the descriptor limit by a reserve for the
    /// transfers (a socket and a file each), the state store, the UDP socket, the notification bus
    /// and the runtime's own, so that accepting a connection never takes the last descriptor.
    public static func fitting(descriptors: Int, transfers: Int) -> HTTPLimits {
        let reserve = 128 + 2 * transfers
        let connections = min(connectionCeiling, max(connectionFloor, descriptors - reserve))
        return HTTPLimits(maximumConnections: connections)
    }
}
