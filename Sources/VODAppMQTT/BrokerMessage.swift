import Foundation

/// A message the broker delivered on the subscription.
public struct BrokerMessage: Sendable, Equatable {
    public let topic: String
    public let payload: Data
    /// The broker's retained message for the topic, sent because the client (re)subscribed, not
    /// because it was just published.
    public let retained: Bool

    public init(topic: String, payload: Data, retained: Bool) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
    }
}
