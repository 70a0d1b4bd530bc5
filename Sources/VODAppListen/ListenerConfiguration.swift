import VODAppDelivery
import VODAppHTTPGuards
import VODAppMQTT

/// What `vodapp listen` binds to and how it handles what arrives.
public struct ListenerConfiguration: Sendable {
    public static let defaultUDP = ListenAddress(host: "127.0.0.1", port: 9930)
    public static let defaultHTTP = ListenAddress(host: "127.0.0.1", port: 9931)

    /// nil turns the receiver off.
    public var udp: ListenAddress?
    public var http: ListenAddress?
    /// When set, HTTP and MQTT pushes must be signed with it (`PushSignature`). UDP cannot be:
    /// `vodapp listen` turns UDP off with a secret unless `--udp` is given.
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
    /// UDP is off because the person said so (`--no-udp`), not because a secret turned it off,
    /// which start-up then says.
    public var udpTurnedOff = false

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
        if let udp, secret != nil {
            warnings.append("udp \(udp) is on beside the secret, and UDP pushes are not authenticated: any process on \(udp.isLoopback ? "this machine" : "the network") can make this machine download (without --header, --cookies and --user-agent); drop --udp to receive signed pushes only")
        } else if let udp, !udp.isLoopback {
            warnings.append("udp \(udp) is reachable from other machines, and UDP pushes cannot be authenticated: anyone who can reach it can make this machine download; use --no-udp or a loopback address")
        }
        if let http, !http.isLoopback, secret == nil {
            warnings.append("http \(http) is reachable from other machines without --secret: anyone who can reach it can make this machine download")
        }
        if udp == nil, secret != nil, !udpTurnedOff {
            warnings.append("UDP is off because a secret is set (UDP pushes cannot be signed): 'vodapp-push send' to udp:// finds nothing listening; "
                            + "send over HTTP with the secret, or give --udp to take unsigned UDP pushes as well")
        }
        if delivery.hasCredentials, !receiverAuthentication.isEmpty, receiverAuthentication.values.allSatisfy({ !$0.carriesCredentials }) {
            warnings.append("--header, --cookies and --user-agent go only with authenticated pushes, and no receiver here authenticates its pushes: "
                            + "no item will be fetched with them; set --secret and sign the pushes")
        }
        if let mqtt, !mqtt.broker.usesTLS, mqtt.broker.password != nil, !Self.isLoopback(mqtt.broker.host) {
            warnings.append("\(mqtt.broker) sends its password unencrypted over the network: use mqtts://")
        }
        return warnings
    }

    /// What the person should understand of how this set-up treats pushes, one line each.
    public var notes: [String] {
        var notes: [String] = []
        if delivery.hasCredentials {
            let open = receiverAuthentication.filter { !$0.value.carriesCredentials }.map(\.key).sorted()
            // When no receiver authenticates, a warning says so (`warnings`).
            if !open.isEmpty, open.count < receiverAuthentication.count {
                notes.append("--header, --cookies and --user-agent go only with authenticated pushes (signed, or --poll's); "
                             + "items of \(Self.conjoined(open)) pushes are fetched without them")
            }
        }
        return notes
    }

    /// How each receiver that is on vouches for its pushes (MQTT: its messages that pass).
    var receiverAuthentication: [String: PushAuthentication] {
        var receivers: [String: PushAuthentication] = [:]
        if udp != nil { receivers["UDP"] = .unauthenticated }
        if http != nil { receivers["HTTP"] = secret == nil ? .unauthenticated : .signed }
        if let mqtt { receivers["MQTT"] = Self.authentication(of: mqtt.broker, signed: secret != nil) }
        // The answers of the person's own --poll URL carry their credentials (seventh attacker
        // trial: the warning said no item would, and the poll's item went with them).
        if pollOnConnect != nil { receivers["poll"] = .poll }
        return receivers
    }

    /// What vouches for a broker's messages: a signature when a secret is set (every message
    /// must carry one), else nothing (`PushAuthentication.unauthenticated`: a broker's login
    /// says nothing of who published).
    static func authentication(of broker: BrokerURL, signed: Bool) -> PushAuthentication {
        signed ? .signed : .unauthenticated
    }

    /// "A", "A and B", "A, B and C".
    private static func conjoined(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + words[words.count - 1]
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1"
    }
}
