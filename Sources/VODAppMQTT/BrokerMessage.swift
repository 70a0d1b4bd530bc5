import Foundation

/// A message the broker delivered on the subscription.
public struct BrokerMessage: Sendable, Equatable {
    public let topic: String
    /// The payload; empty when it was larger than the subscription takes (`size` says how large),
    /// since no push is that large and copying it would only double what it costs.
    public let payload: Data
    /// The payload's length as the broker sent it.
    public let size: Int
    /// The broker's retained message for the topic, sent because the client (re)subscribed, not
    /// because it was just published.
    public let retained: Bool

    public init(topic: String, payload: Data, size: Int? = nil, retained: Bool) {
        self.topic = topic
        self.payload = payload
        self.size = size ?? payload.count
        self.retained = retained
    }

    /// Whether the payload was left out for its size.
    public var isOversized: Bool { size > payload.count }
}
