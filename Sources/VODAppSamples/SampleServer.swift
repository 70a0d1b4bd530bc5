import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP/1.1 server on loopback that serves sample media, including the answers that break
/// downloaders: no length, short bodies, stalls, redirect loops, ranges. See `SampleRoute`.
///
/// Requests are parsed by NIOHTTP1; responses are written as raw bytes, because the broken ones
/// (a body shorter than its Content-Length, a body ended by closing) are exactly what a
/// well-behaved encoder refuses to produce.
public final class SampleServer: Sendable {
    public let host: String
    public let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let log: SampleRequestLog

    private init(host: String, port: Int, group: MultiThreadedEventLoopGroup, channel: any Channel, log: SampleRequestLog) {
        self.host = host
        self.port = port
        self.group = group
        self.channel = channel
        self.log = log
    }

    /// Starts a server.
    /// - Parameters:
    ///   - host: the address to bind; loopback unless there is a reason.
    ///   - port: 0 for any free port.
    ///   - rate: a bandwidth cap per response in bytes per second, unless a request sets `rate`.
    ///   - linkRate: a bandwidth cap in bytes per second that all responses share.
    public static func start(host: String = "127.0.0.1", port: Int = 0, rate: Int? = nil,
                             linkRate: Int? = nil) async throws -> SampleServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let log = SampleRequestLog()
        let link = linkRate.map(SampleLink.init(rate:))
        do {
            // Behind a shared link, a response whose client stopped reading must stop using the
            // link soon, as it would behind a real bottleneck; loopback's self-tuning send buffer
            // would otherwise soak up megabytes for it.
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // A TCP option: `.socketOption(.tcp_nodelay)` would set option 1 at the socket
                // level, SO_DEBUG, which only root may, and every other user's connection closed.
                .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if linkRate != nil {
                            try channel.syncOptions?.setOption(.socketOption(.so_sndbuf), value: 64 * 1024)
                        }
                        let sync = channel.pipeline.syncOperations
                        try sync.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                        try sync.addHandler(SampleRequestHandler(log: log, defaultRate: rate, link: link))
                    }
                }
                .bind(host: host, port: port)
                .get()
            return SampleServer(host: host, port: channel.localAddress?.port ?? port, group: group, channel: channel, log: log)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// `http://host:port`.
    public var baseURL: String { "http://\(host):\(port)" }

    /// The absolute URL of a path such as `/bytes/1024.mp4`.
    public func url(_ path: String) -> String { baseURL + path }

    /// Every request seen so far, in arrival order.
    public var requests: [SampleRequestRecord] { log.all }

    public func shutdown() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}
