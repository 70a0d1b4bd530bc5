import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// One UDP datagram to a receiver, as `nc -u` would send it, but never cut and not blind.
///
/// The socket is connected, so when nothing listens on a reachable host (loopback, a LAN) the
/// kernel's ICMP "port unreachable" comes back as ECONNREFUSED on it; a short wait after sending
/// turns that into an error instead of a silent loss. Silence still proves nothing: UDP cannot.
enum DatagramSender {
    /// The most a UDP datagram can carry over IPv4: 65,535 less the IP and UDP headers.
    static let maximumPayload = 65_507
    /// How long to listen for a refusal after sending: ample for loopback and a LAN.
    static let refusalWait: Duration = .milliseconds(50)

    static func send(_ bytes: some Collection<UInt8>, host: String, port: Int) async throws(PushError) {
        guard bytes.count <= maximumPayload else {
            throw .tooLargeForDatagram(bytes: bytes.count, limit: maximumPayload)
        }
        let errors = ErrorRecorder()
        let address: SocketAddress
        do {
            address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        } catch {
            throw .cannotSend("cannot reach it: \(host) does not resolve")
        }
        // The any-address (0.0.0.0, ::) is what a receiver binds to, not where it is reached;
        // NIO traps on a datagram sent to it.
        if address.ipAddress == "0.0.0.0" || address.ipAddress == "::" {
            throw .cannotSend("\(host) is the any-address a receiver binds to, not one to send to; use 127.0.0.1 or the receiver's own address")
        }
        let channel: any Channel
        do {
            channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(maximumPayload * 2))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(errors)
                    }
                }
                .connect(to: address)
                .get()
        } catch {
            throw .cannotSend("cannot reach it: \(error)")
        }
        defer { channel.close(promise: nil) }
        do {
            guard let remote = channel.remoteAddress else { throw ChannelError.ioOnClosedChannel }
            let buffer = channel.allocator.buffer(bytes: bytes)
            try await channel.writeAndFlush(AddressedEnvelope(remoteAddress: remote, data: buffer)).get()
        } catch {
            throw .cannotSend("cannot send: \(error)")
        }
        try? await Task.sleep(for: refusalWait)
        if errors.first != nil {
            throw .cannotSend("nothing is listening there (the datagram was refused)")
        }
    }

    /// Keeps the first error the socket reports, such as ECONNREFUSED after an ICMP refusal.
    final class ErrorRecorder: ChannelInboundHandler, Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        private let recorded = NIOLockedValueBox<(any Error)?>(nil)

        var first: (any Error)? { recorded.withLockedValue { $0 } }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            recorded.withLockedValue { if $0 == nil { $0 = error } }
        }
    }
}
