import CMosquitto
import VODAppBase

/// A broker and a topic, as `--mqtt` and `vodapp-push send --to` take them:
/// `mqtt://[user[:password]@]host[:port]/topic` (1883 by default), or `mqtts://` for TLS (8883).
///
/// The topic is everything after the host's `/`, wildcards included (`vodapp/devices/+/push`,
/// `vodapp/#`): an MQTT topic is not a URL path, so it is taken as written, and `%XX` escapes are
/// decoded in it and in the user and password. Parsed by hand, not by `URL`, which would read
/// `#` as a fragment.
public struct BrokerURL: Sendable, Equatable, CustomStringConvertible {
    /// What the topic is for: a filter may hold wildcards, a topic to publish to may not.
    public enum Use: Sendable {
        case subscribe, publish
    }

    public let usesTLS: Bool
    public let host: String
    public let port: Int
    public let user: String?
    /// The URL's password. Never printed: `description` leaves it out.
    public let password: String?
    public let topic: String

    public static let plainPort = 1883
    public static let tlsPort = 8883

    /// - Throws: `BrokerURLError` naming what is wrong, in words a person can act on.
    public init(_ text: String, for use: Use) throws(BrokerURLError) {
        let scheme: Substring
        let rest: Substring
        if let separator = text.range(of: "://") {
            scheme = text[..<separator.lowerBound]
            rest = text[separator.upperBound...]
        } else {
            throw .notBrokerURL
        }
        switch scheme.lowercased() {
        case "mqtt": usesTLS = false
        case "mqtts": usesTLS = true
        default: throw .notBrokerURL
        }
        guard let slash = rest.firstIndex(of: "/") else { throw .noTopic }
        var authority = rest[..<slash]
        let topicText = rest[rest.index(after: slash)...]

        // mqtt://user:pa/ss@host/t is host "user", port "pa" and topic "ss@host/t": the password
        // would be shown and logged as a port or a topic. A '/' in a password is written %2F.
        if !authority.contains("@"), topicText.contains("@"), authority.contains(":") || topicText.contains(":") {
            throw .slashInPassword
        }
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decoded(userInfo[..<colon], part: "user")
                password = try Self.decoded(userInfo[userInfo.index(after: colon)...], part: "password")
            } else {
                user = try Self.decoded(userInfo, part: "user")
                password = nil
            }
            if user?.isEmpty == true { throw .emptyUser }
        } else {
            user = nil
            password = nil
        }

        var hostText: Substring
        var portText: Substring?
        let bracketed = authority.hasPrefix("[")
        if bracketed {
            // [v6]:port
            guard let close = authority.firstIndex(of: "]") else { throw .badHost(String(authority)) }
            hostText = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { throw .badHost(String(authority)) }
        } else if let colon = authority.lastIndex(of: ":") {
            hostText = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            hostText = authority
        }
        guard !hostText.isEmpty,
              hostText.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0) || (bracketed && $0 == ":")) })
        else { throw .badHost(String(hostText)) }
        host = String(hostText)
        if let portText {
            guard portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber), !portText.hasPrefix("0"),
                  let port = Int(portText), (1...65535).contains(port) else { throw .badPort(String(portText)) }
            self.port = port
        } else {
            port = usesTLS ? Self.tlsPort : Self.plainPort
        }

        let topic = try Self.decoded(topicText, part: "topic")
        guard !topic.isEmpty else { throw .noTopic }
        // libmosquitto's own checks: what the broker would refuse is refused here, in words.
        switch use {
        case .subscribe:
            guard mosquitto_sub_topic_check(topic) == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw .badFilter(topic) }
        case .publish:
            guard mosquitto_pub_topic_check(topic) == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw .badTopic(topic) }
        }
        self.topic = topic
    }

    /// The same broker and topic with another password (from a file or the environment).
    public func with(password: String?) -> BrokerURL {
        BrokerURL(usesTLS: usesTLS, host: host, port: port, user: user, password: password, topic: topic)
    }

    private init(usesTLS: Bool, host: String, port: Int, user: String?, password: String?, topic: String) {
        self.usesTLS = usesTLS
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.topic = topic
    }

    /// `mqtts://user@host:8883/topic`: never the password.
    public var description: String {
        "\(usesTLS ? "mqtts" : "mqtt")://\(user.map { "\($0)@" } ?? "")\(server)/\(topic)"
    }

    /// `host:port`, with an IPv6 address in brackets.
    public var server: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func decoded(_ text: Substring, part: String) throws(BrokerURLError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex, utf8.index(after: high) < utf8.endIndex,
                      let value = UInt8(String(decoding: [utf8[high], utf8[utf8.index(after: high)]], as: UTF8.self), radix: 16)
                else { throw .badEscape(part: part) }
                bytes.append(value)
                index = utf8.index(high, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self), !decoded.contains("\0") else { throw .badEscape(part: part) }
        return decoded
    }
}

/// Why a broker URL was refused. Each is one sentence that says what to write instead.
public enum BrokerURLError: Error, Sendable, Equatable, CustomStringConvertible {
    case notBrokerURL
    case noTopic
    case emptyUser
    case badHost(String)
    case badPort(String)
    case badEscape(part: String)
    case badFilter(String)
    case badTopic(String)
    case slashInPassword

    public var description: String {
        switch self {
        case .notBrokerURL: "a broker URL is mqtt://[user[:password]@]host[:port]/topic, or mqtts:// for TLS"
        case .noTopic: "the broker URL names no topic: add it after the host, as in mqtt://broker.example/vodapp/push"
        case .emptyUser: "the broker URL has an empty user name before '@'"
        case .badHost(let host): "'\(host)' is not a host name or address"
        case .badPort(let port): "'\(port)' is not a port (1-65535)"
        case .badEscape(let part): "the broker URL's \(part) has a bad %-escape"
        case .badFilter(let topic):
            "'\(topic)' is not a topic filter: '+' and '#' must stand alone between slashes, and '#' only at the end"
        case .badTopic(let topic): "'\(topic)' is not a topic to publish to: it must not hold '+' or '#'"
        case .slashInPassword:
            "the broker URL has an '@' after its first '/': a '/' in the password must be written %2F (or give the password with --mqtt-password-file or VODAPP_MQTT_PASSWORD)"
        }
    }
}

extension BrokerURLError: ExitStatusProviding {
    /// A broker URL is given on the command line: a usage error.
    public var exitStatus: ExitStatus { .usage }
}
