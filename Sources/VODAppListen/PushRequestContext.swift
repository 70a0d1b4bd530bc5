import Hummingbird
import NIOCore

/// Hummingbird's request context plus the peer's address, so the log says who pushed, and its
/// connection, so a body that holds others up can be cut.
public struct PushRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}
