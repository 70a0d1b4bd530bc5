import VODAppBase

/// Why a broker connection failed, and whether trying again can help.
///
/// A listener retries what may mend by itself (a broker that is down, a network that is gone) and
/// stops on what only a person can fix (credentials, trust, a refused client id): reconnecting
/// with the same settings would be refused again, forever, and hide the problem in a log.
public enum BrokerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broker refused the user name and password, or this client (CONNACK 4 or 5).
    case credentialsRefused(broker: String, reason: String)
    /// The broker's certificate did not verify against the trusted CAs, or did not name the host.
    case notTrusted(broker: String, reason: String)
    /// The broker refused the client id (CONNACK 2): another id is needed.
    case clientIDRejected(broker: String, clientID: String)
    /// The broker refused the subscription (a SUBACK of 0x80): its ACL does not allow the topic.
    case subscriptionRefused(broker: String, topic: String)
    /// The broker could not be reached; later may work.
    case unreachable(broker: String, reason: String)
    /// The broker closed a connection it had taken (restarting, or another client took the
    /// session with the same client id); later may work.
    case connectionLost(broker: String)
    /// The broker made libmosquitto hold more than the subscription allows (`heldBytes` beyond
    /// what the process held when the connection began): QoS 2 messages it never releases,
    /// acknowledgements it never reads. The connection and all it held are dropped; later may work.
    case overwhelmed(broker: String, heldBytes: Int)
    /// The broker sent what MQTT forbids it to (`what`): a QoS 2 message on a subscription
    /// granted QoS 1, which libmosquitto would hold until a release that need never come.
    case protocolViolation(broker: String, what: String)
    /// The broker did not acknowledge a publication in time.
    case notAcknowledged(broker: String, waited: Duration)
    /// Settings libmosquitto refused before any connection (an unreadable CA file, say).
    case invalidSettings(String)

    /// Whether waiting and connecting again can succeed with the same settings.
    public var isTransient: Bool {
        switch self {
        case .unreachable, .connectionLost, .overwhelmed, .protocolViolation, .notAcknowledged: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .credentialsRefused(let broker, let reason):
            "\(broker) refused the credentials (\(reason)): check the user name and the password"
        case .notTrusted(let broker, let reason):
            "\(broker)'s certificate is not trusted (\(reason)): give the CA that signed it (vodapp listen --mqtt-cacert FILE, vodapp-push send --cacert FILE), or check the host name"
        case .clientIDRejected(let broker, let clientID):
            "\(broker) refused the client id '\(clientID)': choose another with --mqtt-client-id"
        case .subscriptionRefused(let broker, let topic):
            "\(broker) refused the subscription to '\(topic)': the broker's ACL does not let this user read it"
        case .unreachable(let broker, let reason):
            "cannot reach \(broker): \(reason)"
        case .connectionLost(let broker):
            "\(broker) closed the connection"
        case .overwhelmed(let broker, let heldBytes):
            "\(broker) made vodapp hold \(heldBytes >> 20) MiB it never lets go of (QoS 2 messages never released, or acknowledgements never read): dropped the connection and what it held"
        case .protocolViolation(let broker, let what):
            "\(broker) broke the MQTT protocol (\(what)): dropped the connection and what it held"
        case .notAcknowledged(let broker, let waited):
            "\(broker) did not acknowledge the message within \(Int(waited.inSeconds.rounded(.up))) s"
        case .invalidSettings(let reason):
            reason
        }
    }
}

extension BrokerError: ExitStatusProviding {
    /// A broker that refused the credentials is 77, as a poll endpoint that refused its token;
    /// anything else that kept a broker from taking a push or a subscription is 69.
    public var exitStatus: ExitStatus {
        switch self {
        case .credentialsRefused: .credentialsRejected
        default: .unavailable
        }
    }
}
