import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import VODAppBase
import VODAppHTTPGuards
import VODAppPayload

/// The simulator protocol's side of `vodapp listen`: one UDP datagram carries one payload.
///
/// The old simulator library read into a 512-byte (later 4096-byte) buffer, cut longer payloads
/// without a word and wrote one byte past the end of a full one. Here every read has room for the
/// largest datagram UDP can carry (65,507 bytes over IPv4, 65,527 over IPv6), so a payload is
/// never cut, and a bad one is logged and dropped without disturbing the listener.
public struct DatagramReceiver: Service {
    /// Larger than any UDP payload, so a read can never truncate one.
    static let readCapacity = 65_536
    /// Room in the kernel for a burst of full-size datagrams while the event loop is busy.
    static let socketBufferSize = 4 << 20

    let address: ListenAddress
    let queue: DeliveryQueue
    let logger: Logger
    let warnings: WarningLimiter
    let onBound: @Sendable (SocketAddress) -> Void

    package init(address: ListenAddress, queue: DeliveryQueue, logger: Logger, warnings: WarningLimiter,
                onBound: @escaping @Sendable (SocketAddress) -> Void = { _ in }) {
        self.address = address
        self.queue = queue
        self.logger = logger
        self.warnings = warnings
        self.onBound = onBound
    }

    public func run() async throws {
        let channel: any Channel
        do {
            // No SO_REUSEADDR: UDP has no TIME_WAIT to wait out, and with it another process (another
            // user's) could bind the same port beside the listener and take its pushes.
            channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(Self.socketBufferSize))
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: Self.readCapacity))
                .channelInitializer { [queue, logger, warnings] channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(DatagramHandler(queue: queue, logger: logger, warnings: warnings))
                    }
                }
                .bind(host: address.host, port: address.port)
                .get()
        } catch {
            throw ListenerError.cannotBind(protocol: "udp", address: address, reason: ListenerError.reason(error, protocol: "udp"))
        }
        if let local = channel.localAddress { onBound(local) }
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                try? await channel.closeFuture.get()
            } onCancel: {
                channel.close(promise: nil)
            }
        } onGracefulShutdown: {
            // Receiving stops at once; what was accepted is the queue's to finish.
            channel.close(promise: nil)
        }
    }
}

/// Turns each datagram into a push for the queue, or a log line saying why it was dropped.
final class DatagramHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    let queue: DeliveryQueue
    let logger: Logger
    let warnings: WarningLimiter

    init(queue: DeliveryQueue, logger: Logger, warnings: WarningLimiter) {
        self.queue = queue
        self.logger = logger
        self.warnings = warnings
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let peer = envelope.remoteAddress.shown
        let bytes = envelope.data.readableBytes
        let payload: Payload
        do {
            payload = try Payload(data: Data(envelope.data.readableBytesView))
        } catch {
            warnings.warn("invalid datagrams", "dropped a datagram: invalid payload: \(error)",
                          metadata: ["from": "udp \(peer)", "bytes": "\(bytes)"])
            return
        }
        do {
            _ = try queue.submit(payload, from: .udp(peer: peer))
        } catch {
            warnings.warn("dropped datagram pushes", "dropped a push: \(error)",
                          metadata: ["from": "udp \(peer)", "bytes": "\(bytes)"])
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // An ICMP error from an earlier reply or a bad read concerns one datagram, not the
        // listener: keep the socket open.
        logger.debug("udp receive error: \(error)")
    }
}
