import VODAppDelivery

/// Who vouches for a push a listener received, which decides whether the person's credentials
/// (`--header`, `--cookies`, `--user-agent`) go with its requests.
///
/// A push names its own URLs. One from a source anyone on the machine can use (a UDP datagram,
/// an unsigned POST, a message on an open broker) could otherwise have the listener send the
/// person's cookies to a server of the sender's choosing, and put what they protect in DIR.
public enum PushAuthentication: Sendable, Equatable, CustomStringConvertible {
    /// Nothing vouches for it: a UDP datagram, an HTTP push without a secret, an MQTT message
    /// without a secret set.
    ///
    /// A broker's login is not a voucher: it proves who the listener is to the broker, not who
    /// published. A broker with accounts may still let anonymous clients publish (mosquitto's
    /// `allow_anonymous true` beside a `password_file`), and the attacker trial had such a broker
    /// hand the listener's cookies to an anonymous publisher's server.
    case unauthenticated
    /// Signed with the listener's secret, over a time and its bytes (HTTP or MQTT).
    case signed
    /// The answer of the `--poll` URL the person gave.
    case poll
    /// The listener's own retry of items that such pushes named (`StoredItem.vouched`).
    case retry

    /// Whether the push's requests carry the person's headers, cookies and User-Agent.
    public var carriesCredentials: Bool {
        self != .unauthenticated
    }

    public var description: String {
        switch self {
        case .unauthenticated: "unauthenticated"
        case .signed: "signed"
        case .poll: "polled"
        case .retry: "a retry of vouched-for items"
        }
    }
}

extension DeliveryOptions {
    /// These options for a push vouched for by `authentication`. When nothing vouches for it:
    /// without the person's headers, cookies and User-Agent, and recorded as unvouched, so that
    /// its retention removes only what other such pushes brought (`DeliveryOptions.vouched`).
    public func forPush(vouchedBy authentication: PushAuthentication) -> DeliveryOptions {
        guard !authentication.carriesCredentials else { return self }
        var options = self
        options.vouched = false
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
