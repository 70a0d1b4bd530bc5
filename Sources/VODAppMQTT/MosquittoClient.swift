import CMosquitto
import Foundation
import Logging
import VODAppBase

/// One libmosquitto client, driven by the one thread that calls `loop`.
///
/// libmosquitto calls its callbacks from inside `mosquitto_loop`, on the caller's thread, so what
/// they hear (`Heard`) is read back by the same thread after each loop step: no lock is needed,
/// and no callback does more than note what happened or hand a message on.
final class MosquittoClient {
    struct Settings: Sendable {
        var broker: BrokerURL
        var clientID: String
        /// false: the broker keeps the session (subscriptions, queued QoS 1 messages) while the
        /// client is away.
        var cleanSession: Bool
        /// A PEM file of CAs to trust instead of the system's, for `mqtts`.
        var caFile: String?
        var keepAlive: Duration
        /// The largest payload handed on; a larger one is reported by its size only.
        var maximumPayload: Int = .max
    }

    /// What the callbacks heard since the loop last looked.
    final class Heard {
        var connack: (code: Int32, sessionPresent: Bool)?
        var published: Set<Int32> = []
        var subscribed: [Int32: [Int32]] = [:]
        /// libmosquitto's last error line: the one place OpenSSL's reason is said.
        var lastError: String?
        var onMessage: (BrokerMessage) -> Void = { _ in }
        let logger: Logger
        let maximumPayload: Int
        /// Why the connection was cut from inside a loop step (`cut(_:)`), for the subscription.
        var violation: BrokerError?
        /// Called for every PUBLISH read, before libmosquitto handles it further: a loop step
        /// can read thousands, and what a broker makes the client hold must be seen as it grows.
        var onPublishRead: (_ qos: Int, _ payloadBytes: Int) -> Void = { _, _ in }

        init(logger: Logger, maximumPayload: Int) {
            self.logger = logger
            self.maximumPayload = maximumPayload
        }
    }

    /// libmosquitto loaded (CMosquitto's loader) and set up, once per process, before the first
    /// client; or why it cannot be used.
    private static let unavailable: String? = {
        if let failure = String(failureOf: { vod_mosquitto_load($0, $1) }) {
            return "libmosquitto cannot be used: " + failure
        }
        mosquitto_lib_init()
        return nil
    }()

    let settings: Settings
    private let handle: OpaquePointer
    private let heard: Heard
    private var hasConnected = false

    /// - Throws: `BrokerError.invalidSettings` when libmosquitto refuses them (an unreadable CA file).
    init(_ settings: Settings, logger: Logger, onMessage: @escaping (BrokerMessage) -> Void = { _ in }) throws(BrokerError) {
        if let reason = Self.unavailable { throw .invalidSettings(reason) }
        self.settings = settings
        heard = Heard(logger: logger, maximumPayload: settings.maximumPayload)
        heard.onMessage = onMessage
        guard let handle = mosquitto_new(settings.clientID, settings.cleanSession, Unmanaged.passUnretained(heard).toOpaque()) else {
            throw .invalidSettings("libmosquitto could not make a client (client id '\(settings.clientID)')")
        }
        self.handle = handle
        mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        // Pushes are small and rare: no reason to hold one back for Nagle.
        mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1)
        if let user = settings.broker.user {
            mosquitto_username_pw_set(handle, user, settings.broker.password)
        } else if settings.broker.password != nil {
            throw .invalidSettings("a broker password needs a user: write it as mqtt://USER@host/topic")
        }
        if settings.broker.usesTLS {
            if let caFile = settings.caFile {
                // libmosquitto takes any file here, and every handshake then fails as if the
                // network had ("no certificate or crl found"), retried for ever.
                if let problem = CertificateFile.problem(at: caFile) {
                    throw .invalidSettings("the CA file '\(caFile)' \(problem)")
                }
                guard mosquitto_tls_set(handle, caFile, nil, nil, nil, nil) == Self.success else {
                    throw .invalidSettings("cannot read the CA file '\(caFile)': give a readable PEM file")
                }
            } else {
                mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
            }
        }
        installCallbacks()
    }

    deinit {
        mosquitto_destroy(handle)
    }

    static let success = Int32(MOSQ_ERR_SUCCESS.rawValue)

    private func installCallbacks() {
        mosquitto_connect_with_flags_callback_set(handle) { _, context, code, flags in
            guard let context else { return }
            Unmanaged<Heard>.fromOpaque(context).takeUnretainedValue().connack = (code, flags & 1 != 0)
        }
        mosquitto_publish_callback_set(handle) { _, context, messageID in
            guard let context else { return }
            Unmanaged<Heard>.fromOpaque(context).takeUnretainedValue().published.insert(messageID)
        }
        mosquitto_subscribe_callback_set(handle) { _, context, messageID, count, granted in
            guard let context else { return }
            // One filter is subscribed to at a time: a SUBACK granting more (a hostile broker's
            // 255 MiB one, which libmosquitto already holds four times over) is not copied again.
            let qualities = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(min(count, 8)))) } ?? []
            Unmanaged<Heard>.fromOpaque(context).takeUnretainedValue().subscribed[messageID] = qualities
        }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let context, let message else { return }
            let heard = Unmanaged<Heard>.fromOpaque(context).takeUnretainedValue()
            // Read on a connection `cut` just ended (a message that made the process hold too
            // much): not delivered, and never acknowledged.
            guard heard.violation == nil else { return }
            let topic = message.pointee.topic.map { String(cString: $0) } ?? ""
            let size = Int(max(message.pointee.payloadlen, 0))
            let bytes = size <= heard.maximumPayload ? message.pointee.payload.map { Data(bytes: $0, count: size) } ?? Data() : Data()
            heard.onMessage(BrokerMessage(topic: topic, payload: bytes, size: size, retained: message.pointee.retain))
        }
        mosquitto_log_callback_set(handle) { _, context, level, line in
            guard let context, let line else { return }
            let heard = Unmanaged<Heard>.fromOpaque(context).takeUnretainedValue()
            let text = String(cString: line)
            if level == MOSQ_LOG_ERR || level == MOSQ_LOG_WARNING {
                heard.lastError = text
            }
            // libmosquitto says nothing else of a PUBLISH before it has stored it (a QoS 2 one is
            // held until the broker releases it, which a hostile broker never does): its debug
            // line "Client ID received PUBLISH (d0, q2, r0, m1, 'topic', ... (N bytes))" is the one
            // place to see it arrive, and how large its payload is.
            if level == MOSQ_LOG_DEBUG, let range = text.range(of: " received PUBLISH (d") {
                let rest = text[range.upperBound...].dropFirst(1)
                let qos = rest.hasPrefix(", q") ? rest.dropFirst(3).first?.wholeNumberValue ?? 0 : 0
                heard.onPublishRead(qos, MosquittoClient.payloadBytes(announcedIn: text))
            }
            heard.logger.trace("libmosquitto: \(text)")
        }
    }

    /// Starts a connection without waiting for it (the first, or again after a loss). The answer
    /// comes as `takeConnack()` after later `loop` steps.
    func connect() -> Int32 {
        heard.lastError = nil
        heard.connack = nil
        // libmosquitto keeps the host and port only from a connect that got as far as a socket;
        // until one did, each try is a first connect.
        if hasConnected {
            return mosquitto_reconnect_async(handle)
        }
        let code = mosquitto_connect_async(handle, settings.broker.host, Int32(settings.broker.port),
                                           Int32(settings.keepAlive.inSeconds.rounded()))
        hasConnected = code == Self.success
        return code
    }

    /// Called for each PUBLISH libmosquitto reads, on the loop's thread, with its QoS and the
    /// size of the payload it holds for it.
    func onPublishRead(_ handler: @escaping (_ qos: Int, _ payloadBytes: Int) -> Void) {
        heard.onPublishRead = handler
    }

    /// The payload size libmosquitto's debug line for a PUBLISH ends with, "… (N bytes))"; 0 if
    /// it does not. Read from the end: the topic before it may hold anything.
    static func payloadBytes(announcedIn line: String) -> Int {
        guard line.hasSuffix(" bytes))"), let open = line.range(of: "(", options: .backwards) else { return 0 }
        return Int(line[open.upperBound...].dropLast(" bytes))".count)) ?? 0
    }

    /// Ends the connection from inside a loop step, for `reason`: the socket is shut down (not
    /// closed: libmosquitto owns it), so the step reads nothing more and the loop reports the
    /// loss; `violation` then says why.
    func cut(_ reason: BrokerError) {
        guard heard.violation == nil else { return }
        heard.violation = reason
        let fd = mosquitto_socket(handle)
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Why `cut` ended the connection, once.
    func takeViolation() -> BrokerError? {
        defer { heard.violation = nil }
        return heard.violation
    }

    /// Reads, writes and keeps the connection alive for at most `timeout`.
    func loop(timeout: Duration) -> Int32 {
        mosquitto_loop(handle, Int32(max(timeout.milliseconds, 1)), 1)
    }

    /// Whether the connection in progress has already failed: its socket reports an error or a
    /// hang-up. Over TLS, libmosquitto 2.0.11 does not notice a refused connection: it goes on
    /// writing the handshake to the dead socket in a busy loop (EPIPE each time) until the
    /// connect timeout.
    func pendingSocketError() -> BrokerError? {
        let fd = mosquitto_socket(handle)
        guard fd >= 0 else { return nil }
        var watched = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&watched, 1, 0) == 1, watched.revents & Int16(POLLERR | POLLHUP) != 0 else { return nil }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
        let reason = code != 0 ? String(cString: strerror(code)) : "the connection was refused or closed before the broker answered"
        return .unreachable(broker: settings.broker.server, reason: reason)
    }

    func takeConnack() -> (code: Int32, sessionPresent: Bool)? {
        defer { heard.connack = nil }
        return heard.connack
    }

    func takeSubscription(_ messageID: Int32) -> [Int32]? {
        heard.subscribed.removeValue(forKey: messageID)
    }

    func wasPublished(_ messageID: Int32) -> Bool {
        heard.published.contains(messageID)
    }

    /// Subscribes at QoS 1; the message id names the SUBACK.
    func subscribe(_ filter: String) -> (code: Int32, messageID: Int32) {
        var messageID: Int32 = 0
        let code = mosquitto_subscribe(handle, &messageID, filter, 1)
        return (code, messageID)
    }

    /// Drops a filter from the session (one the device subscribed to before, under the same id).
    func unsubscribe(_ filter: String) -> Int32 {
        mosquitto_unsubscribe(handle, nil, filter)
    }

    /// Publishes at QoS 1; the message id names the PUBACK.
    func publish(_ payload: Data, to topic: String, retain: Bool) -> (code: Int32, messageID: Int32) {
        var messageID: Int32 = 0
        let code = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, &messageID, topic, Int32(bytes.count), bytes.baseAddress, 1, retain)
        }
        return (code, messageID)
    }

    /// Sends DISCONNECT and lets the loop write it: a clean goodbye, so that the broker keeps a
    /// persistent session without publishing a will or waiting for the keep-alive to lapse.
    func disconnect() {
        guard mosquitto_disconnect(handle) == Self.success else { return }
        let end = ContinuousClock.now + .milliseconds(300)
        while ContinuousClock.now < end, mosquitto_loop(handle, 50, 1) == Self.success {}
    }

    /// Why a loop step or a connect failed, in words, with trust failures told apart.
    func failure(_ code: Int32) -> BrokerError {
        let broker = settings.broker.server
        // libmosquitto's sentences end with a period; ours go on after them.
        let library = String(String(cString: mosquitto_strerror(code)).trimmingSuffix("."))
        let detail = heard.lastError.map(Self.openSSLReason) ?? library
        if code == Int32(MOSQ_ERR_TLS.rawValue) || code == Int32(MOSQ_ERR_TLS_HANDSHAKE.rawValue) || heard.lastError?.contains("OpenSSL") == true {
            if detail.contains("certificate verify failed") || detail.contains("self-signed") || detail.contains("unable to get local issuer") {
                return .notTrusted(broker: broker, reason: detail)
            }
            return .unreachable(broker: broker, reason: "TLS failed: \(detail)")
        }
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) {
            // errno 0 ("Success") when the broker simply closed the connection.
            return errno == 0 ? .connectionLost(broker: broker) : .unreachable(broker: broker, reason: String(cString: strerror(errno)))
        }
        if code == Int32(MOSQ_ERR_EAI.rawValue) {
            return .unreachable(broker: broker, reason: "the host name does not resolve")
        }
        if code == Int32(MOSQ_ERR_CONN_LOST.rawValue) || code == Int32(MOSQ_ERR_NO_CONN.rawValue) {
            return .connectionLost(broker: broker)
        }
        return .unreachable(broker: broker, reason: library)
    }

    /// What a CONNACK's refusal means, as a `BrokerError`.
    func refusal(_ code: Int32) -> BrokerError {
        let broker = settings.broker.server
        let reason = String(String(cString: mosquitto_connack_string(code)).trimmingSuffix("."))
        switch code {
        case Int32(CONNACK_REFUSED_BAD_USERNAME_PASSWORD.rawValue), Int32(CONNACK_REFUSED_NOT_AUTHORIZED.rawValue):
            // A password never given is the likelier fix than a wrong one.
            let unsent = settings.broker.password == nil
                ? (settings.broker.user == nil ? "; no user name and no password were sent" : "; no password was sent") : ""
            return .credentialsRefused(broker: broker, reason: reason + unsent)
        case Int32(CONNACK_REFUSED_IDENTIFIER_REJECTED.rawValue):
            return .clientIDRejected(broker: broker, clientID: settings.clientID)
        default:
            return .unreachable(broker: broker, reason: reason)
        }
    }

    /// "OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed" → the part a
    /// person reads.
    private static func openSSLReason(_ line: String) -> String {
        guard let last = line.range(of: "::", options: .backwards) else { return line }
        return String(line[last.upperBound...])
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: Character) -> Substring {
        last == suffix ? dropLast() : Substring(self)
    }
}
