import VODAppDelivery

/// Who vouches for a push a listener received, which decides whether the person's credentials
/// (`--header`, `--cookies`, `--user-agent`) go with its requests.
///
/// A push names its own URLs. One from a source anyone on the machine can use (a UDP datagram,
/// an unsigned POST, a message on an open broker) could otherwise have the listener send the
/// person's cookies to a server of the sender's choosing, and put what they protect in DIR.
public enum PushAuthentication: Sendable, Equatable, CustomStringConvertible {
    /// Nothing vouches for it: a UDP datagram, an HTTP push without a secret, a message from a
    /// broker that asked for no credentials with no secret set.
    case unauthenticated
    /// Signed with the listener's secret, over a time and its bytes (HTTP or MQTT).
    case signed
    /// A message from a broker that took the listener's user (and password) before it handed
    /// anything over: only who may publish there reaches it.
    case brokerCredentials
    /// The answer of the `--poll` URL the person gave.
    case poll

    /// Whether the push's requests carry the person's headers, cookies and User-Agent.
    public var carriesCredentials: Bool {
        self != .unauthenticated
    }

    public var description: String {
        switch self {
        case .unauthenticated: "unauthenticated"
        case .signed: "signed"
        case .brokerCredentials: "from a broker that required credentials"
        case .poll: "polled"
        }
    }
}

extension DeliveryOptions {
    /// These options for a push vouched for by `authentication`: without the person's headers,
    /// cookies and User-Agent when nothing vouches for it.
    public func credentialed(for authentication: PushAuthentication) -> DeliveryOptions {
        guard !authentication.carriesCredentials else { return self }
        var options = self
        options.headers = []
        options.cookieFile = nil
        options.headerHosts = []
        options.userAgent = DeliveryOptions.defaultUserAgent
        return options
    }

    /// Whether any of the person's credentials are set.
    var hasCredentials: Bool {
        !headers.isEmpty || cookieFile != nil || userAgent != DeliveryOptions.defaultUserAgent
    }
}
