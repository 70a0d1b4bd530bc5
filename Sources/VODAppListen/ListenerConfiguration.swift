import VODAppDelivery
import VODAppMQTT

/// What `vodapp listen` binds to and how it handles what arrives.
public struct ListenerConfiguration: Sendable {
    public static let defaultUDP = ListenAddress(host: "127.0.0.1", port: 9930)
    public static let defaultHTTP = ListenAddress(host: "127.0.0.1", port: 9931)

    /// nil turns the receiver off.
    public var udp: ListenAddress?
    public var http: ListenAddress?
    /// When set, HTTP pushes must be signed with it. UDP cannot be.
    public var secret: String?
    /// A broker subscription to receive pushes through (a device behind NAT); nil: none.
    public var mqtt: BrokerSubscription.Settings?
    /// Asked once on every (re)connection to the broker, for pushes the broker did not keep.
    public var pollOnConnect: PayloadPoll?
    public var queueCapacity: Int
    public var concurrency: Int
    /// Each delivery runs with these, exactly as one `vodapp handle` would.
    public var delivery: DeliveryOptions
    /// What HTTP peers may hold; nil: fitted to the descriptor limit, which the listener raises
    /// to the hard limit first.
    public var httpLimits: HTTPLimits?

    public init(
        udp: ListenAddress? = defaultUDP,
        http: ListenAddress? = defaultHTTP,
        secret: String? = nil,
        mqtt: BrokerSubscription.Settings? = nil,
        pollOnConnect: PayloadPoll? = nil,
        queueCapacity: Int = DeliveryQueue.defaultCapacity,
        concurrency: Int = DeliveryQueue.defaultConcurrency,
        delivery: DeliveryOptions,
        httpLimits: HTTPLimits? = nil
    ) {
        self.httpLimits = httpLimits
        self.udp = udp
        self.http = http
        self.secret = secret
        self.mqtt = mqtt
        self.pollOnConnect = pollOnConnect
        self.queueCapacity = queueCapacity
        self.concurrency = concurrency
        self.delivery = delivery
    }

    /// What a person should know before trusting this set-up, one line each.
    public var warnings: [String] {
        var warnings: [String] = []
        if let udp, !udp.isLoopback {
            warnings.append("udp \(udp) is reachable from other machines, and UDP pushes cannot be authenticated: anyone who can reach it can make this machine download; use --no-udp or a loopback address")
        }
        if let http, !http.isLoopback, secret == nil {
            warnings.append("http \(http) is reachable from other machines without --secret: anyone who can reach it can make this machine download")
        }
        if let mqtt, !mqtt.broker.usesTLS, mqtt.broker.password != nil, !Self.isLoopback(mqtt.broker.host) {
            warnings.append("\(mqtt.broker) sends its password unencrypted over the network: use mqtts://")
        }
        return warnings
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1"
    }
}
