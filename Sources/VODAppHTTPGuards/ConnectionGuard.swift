import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import VODAppBase

/// Sits in every HTTP connection's pipeline, after the HTTP decoder, and holds the connection to
/// `HTTPLimits`: it enrols it in the `ConnectionRoster`, keeps its reads small, and closes it
/// when a request's headers or body take longer than allowed.
///
/// Hummingbird's own `idleTimeout` restarts at every body part, so a peer sending a byte a second
/// would keep its connection forever; these deadlines are fixed when the wait begins.
package final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart
    package typealias OutboundIn = HTTPResponsePart
    package typealias OutboundOut = HTTPResponsePart

    private let roster: ConnectionRoster
    private let limits: HTTPLimits
    private let warnings: WarningLimiter
    /// Between requests both are true: the connection waits for the next one's headers. While
    /// the request is read whole and not yet answered (a `?wait=1` runs a delivery), it waits
    /// for nothing from the peer and has no deadline.
    private var requestRead = true
    private var answered = true
    private var deadline: Scheduled<Void>?
    /// Whether the roster was asked (once) to take the connection in.
    private var enrolled = false

    package init(roster: ConnectionRoster, limits: HTTPLimits, warnings: WarningLimiter) {
        self.roster = roster
        self.limits = limits
        self.warnings = warnings
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        // Added while the accepted connection is being set up, so it is already active.
        guard context.channel.isActive else { return }
        enrol(context: context)
    }

    package func channelActive(context: ChannelHandlerContext) {
        if !enrolled { enrol(context: context) }
        context.fireChannelActive()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        roster.remove(context.channel)
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requestRead = false
            answered = false
            arm(limits.bodyTimeout, waitingFor: "its request body", context: context)
        case .body:
            break
        case .end:
            requestRead = true
            if answered {
                arm(limits.headerTimeout, waitingFor: "another request", context: context)
            } else {
                cancelDeadline()
                roster.setWaiting(context.channel, false)
            }
        }
        context.fireChannelRead(data)
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            answered = true
            // Answered before the body was read (413, 503): Hummingbird reads the rest and drops
            // it, within the body's deadline, which still runs. Otherwise the connection may carry
            // another request, which must come in time.
            if requestRead {
                arm(limits.headerTimeout, waitingFor: "another request", context: context)
            }
        }
        context.write(data, promise: promise)
    }

    /// Hummingbird lets ten reads wait for the handler of each connection, and NIO grows a fast
    /// peer's reads to 64 KiB: 640 KiB a connection, most of a gigabyte at the connection limit.
    /// 8 KiB reads still take a 1 MiB body in a few milliseconds.
    static let readAllocator = AdaptiveRecvByteBufferAllocator(minimum: 256, initial: 2048, maximum: 8192)

    private func enrol(context: ChannelHandlerContext) {
        enrolled = true
        try? context.channel.syncOptions?.setOption(.recvAllocator, value: Self.readAllocator)
        guard roster.admit(context.channel) else {
            warnings.warn("HTTP connections closed at the connection limit",
                          "closed an HTTP connection: \(roster.capacity) are open, each with a request being answered",
                          metadata: ["from": "\(peer(context))"])
            context.close(promise: nil)
            return
        }
        arm(limits.headerTimeout, waitingFor: "its request headers", context: context)
    }

    private func arm(_ timeout: Duration, waitingFor what: String, context: ChannelHandlerContext) {
        cancelDeadline()
        roster.setWaiting(context.channel, true)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let peer = peer(context)
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            let (handler, context) = loopBound.value
            handler.deadline = nil
            handler.warnings.warn("HTTP connections closed as too slow",
                                  "closed an HTTP connection: \(what) did not come within \(timeout)",
                                  metadata: ["from": "\(peer)"])
            context.close(promise: nil)
        }
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }

    private func peer(_ context: ChannelHandlerContext) -> String {
        context.channel.remoteAddress.map { "http " + $0.shown } ?? "http unknown peer"
    }
}
