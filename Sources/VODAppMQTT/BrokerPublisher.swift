import Foundation
import Logging
import VODAppBase

/// Publishes one message at QoS 1 and waits for the broker's PUBACK: `vodapp-push send --to
/// mqtt://…`. A PUBACK means the broker took the message and will deliver it to every
/// subscriber, including the persistent sessions of devices that are offline now.
public struct BrokerPublisher: Sendable {
    public let broker: BrokerURL
    public let caFile: String?
    /// The whole publication's limit: connecting, publishing and the acknowledgement.
    public let timeout: Duration

    public init(broker: BrokerURL, caFile: String? = nil, timeout: Duration = .seconds(10)) {
        self.broker = broker
        self.caFile = caFile
        self.timeout = timeout
    }

    /// - Parameter retain: the broker keeps the message and hands it to every later subscriber.
    /// - Throws: `BrokerError` when the broker could not be reached, refused the credentials, or
    ///   did not acknowledge the message in time.
    public func publish(_ payload: Data, retain: Bool = false, logger: Logger) async throws(BrokerError) {
        let failure: BrokerError? = await withCheckedContinuation { continuation in
            let thread = Thread { [self] in
                continuation.resume(returning: publishOnCurrentThread(payload, retain: retain, logger: logger))
            }
            thread.name = "vodapp-mqtt-publish"
            thread.start()
        }
        if let failure { throw failure }
    }

    private func publishOnCurrentThread(_ payload: Data, retain: Bool, logger: Logger) -> BrokerError? {
        let client: MosquittoClient
        do {
            // A clean session with a one-off id: a sender needs no session of its own, and two
            // senders at once must not take each other's.
            let id = "vodapp-push-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            client = try MosquittoClient(.init(broker: broker, clientID: id, cleanSession: true, caFile: caFile,
                                               keepAlive: .seconds(30)), logger: logger)
        } catch {
            return error
        }
        let deadline = ContinuousClock.now + timeout
        // A broker that takes the connection and never answers it is not waited for as long as
        // an acknowledgement may take.
        let answerBy = ContinuousClock.now + min(timeout, .seconds(10))
        let started = client.connect()
        guard started == MosquittoClient.success else { return client.failure(started) }
        var publication: Int32?
        while ContinuousClock.now < deadline {
            let code = client.loop(timeout: .milliseconds(100))
            if let connack = client.takeConnack() {
                guard connack.code == 0 else { return client.refusal(connack.code) }
                let sent = client.publish(payload, to: broker.topic, retain: retain)
                guard sent.code == MosquittoClient.success else { return client.failure(sent.code) }
                publication = sent.messageID
            }
            if let publication, client.wasPublished(publication) {
                client.disconnect()
                return nil
            }
            guard code == MosquittoClient.success else { return client.failure(code) }
            if publication == nil, let refused = client.pendingSocketError() { return refused }
            if publication == nil, ContinuousClock.now > answerBy {
                client.disconnect()
                return .unreachable(broker: broker.server, reason: "no answer within \(Int(min(timeout, .seconds(10)).inSeconds.rounded())) s")
            }
        }
        if publication == nil {
            return .unreachable(broker: broker.server, reason: "no answer within \(Int(timeout.inSeconds.rounded())) s")
        }
        client.disconnect()
        return .notAcknowledged(broker: broker.server, waited: timeout)
    }
}
