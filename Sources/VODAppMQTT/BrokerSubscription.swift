import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers
import VODAppBase

/// A QoS 1 subscription with a persistent session, kept up for as long as it runs.
///
/// It connects with clean session off and a stable client id, so the broker keeps the
/// subscription and queues QoS 1 messages while the device is off or away; when the connection
/// drops, or the broker is down from the start, it connects again after a jittered exponential
/// wait (`ReconnectBackoff`). It stops for good only on what a person must fix: refused
/// credentials, an untrusted certificate, a refused client id or subscription.
///
/// libmosquitto's loop runs on a thread of its own for the subscription's whole life: it blocks
/// in `select` between messages, and a message is handed on (`Event.message`) from inside it.
/// libmosquitto has already acknowledged a QoS 1 message when it hands it over, so whoever
/// hears the event must make it durable before returning, and must return quickly: while the
/// event is handled no keep-alive is answered.
public final class BrokerSubscription: Sendable {
    public enum Event: Sendable {
        /// Connected and subscribed (again): the broker acknowledged the subscription, so a push
        /// published from now on reaches this client. `sessionPresent`: the broker kept the
        /// session, and delivers what was queued for it while the device was away.
        case subscribed(sessionPresent: Bool)
        /// The connection failed or dropped; the next try comes after `retryIn`.
        case disconnected(BrokerError, retryIn: Duration)
        case message(BrokerMessage)
    }

    public struct Settings: Sendable {
        /// Where, and which topic filter; its password is the one sent.
        public var broker: BrokerURL
        public var clientID: String
        public var caFile: String?
        public var backoff: ReconnectBackoff
        /// How long a connection may take to be answered before it counts as failed.
        public var connectTimeout: Duration
        public var keepAlive: Duration
        /// Filters an earlier run subscribed to under the same client id and this one does not:
        /// the broker keeps a persistent session's subscriptions, so a device moved to another
        /// topic would go on receiving the old one's pushes unless it unsubscribes.
        public var formerFilters: [String]
        /// The largest payload handed on whole; a larger one comes as its size only.
        public var maximumPayload: Int
        /// How much the heap may grow during one connection before the broker counts as holding
        /// the process hostage (`BrokerError.overwhelmed`). The default lets one message of
        /// MQTT's largest size (256 MiB, which libmosquitto allocates whole before reading it)
        /// through, with room to spare.
        public var heapCeiling: Int

        public init(broker: BrokerURL, clientID: String, caFile: String? = nil, backoff: ReconnectBackoff = .standard,
                    connectTimeout: Duration = .seconds(10), keepAlive: Duration = .seconds(60), formerFilters: [String] = [],
                    maximumPayload: Int = .max, heapCeiling: Int = BrokerSubscription.standardHeapCeiling) {
            self.formerFilters = formerFilters
            self.maximumPayload = maximumPayload
            self.heapCeiling = heapCeiling
            self.broker = broker
            self.clientID = clientID
            self.caFile = caFile
            self.backoff = backoff
            self.connectTimeout = connectTimeout
            self.keepAlive = keepAlive
        }
    }

    /// See `Settings.heapCeiling`.
    public static let standardHeapCeiling = 320 << 20

    /// How long a connection must have lasted for its loss to start the backoff from 1 s again.
    static let stableAfter: Duration = .seconds(30)

    /// How long one loop step may block: the longest a stop waits for the loop to notice it.
    static let step: Duration = .milliseconds(250)

    /// How often the heap is measured while connected (and at every message read).
    static let heapCheckInterval: Duration = .milliseconds(100)

    public let settings: Settings
    private let logger: Logger
    private let stopped = NIOLockedValueBox(false)
    private let paused = NIOLockedValueBox(false)
    /// Wakes a wait between connection attempts, or a pause, when the subscription is stopped or
    /// resumed.
    private let wake = DispatchSemaphore(value: 0)

    public init(_ settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// Keeps the subscription up until `stop()`, handing every event to `onEvent` on the
    /// subscription's thread.
    /// - Throws: `BrokerError` when the broker refuses what only a person can change.
    public func run(onEvent: @escaping @Sendable (Event) -> Void) async throws(BrokerError) {
        let failure: BrokerError? = await withCheckedContinuation { continuation in
            let thread = Thread { [self] in
                continuation.resume(returning: runOnCurrentThread(onEvent))
            }
            thread.name = "vodapp-mqtt"
            thread.start()
        }
        if let failure { throw failure }
    }

    /// Ends the subscription: a clean DISCONNECT, so the broker keeps the session and queues what
    /// comes next. Safe from any thread, at any time, more than once.
    public func stop() {
        let first = stopped.withLockedValue { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first { wake.signal() }
    }

    private var isStopped: Bool {
        stopped.withLockedValue { $0 }
    }

    /// Takes no more messages for now: the connection ends cleanly (DISCONNECT), so the broker
    /// keeps the session and queues what comes, until `resume()`. For a receiver that cannot keep
    /// more: libmosquitto acknowledges each message before handing it over, so one taken and not
    /// kept is lost, and one left at the broker is not.
    public func pause() {
        paused.withLockedValue { $0 = true }
    }

    /// Connects again after `pause()`.
    public func resume() {
        let was = paused.withLockedValue { paused in
            defer { paused = false }
            return paused
        }
        if was { wake.signal() }
    }

    private var isPaused: Bool {
        paused.withLockedValue { $0 }
    }

    private enum SessionEnd {
        case stopped
        case paused
        /// `stable`: the connection had lasted long enough (`stableAfter`) for the backoff to
        /// start again from its first step.
        case lost(BrokerError, stable: Bool)
        case fatal(BrokerError)

        /// What a person must fix ends the subscription; the rest is tried again.
        static func fatalOrLost(_ error: BrokerError, stable: Bool = false) -> Self {
            error.isTransient ? .lost(error, stable: stable) : .fatal(error)
        }
    }

    private func runOnCurrentThread(_ onEvent: @escaping @Sendable (Event) -> Void) -> BrokerError? {
        var attempt = 0
        while !isStopped {
            let end: SessionEnd
            do {
                // A new client for every connection, gone when it ends: only destroying one frees
                // what it held, and libmosquitto keeps unreleased QoS 2 messages across reconnects,
                // where a broker could pile them up one connection at a time. The broker keeps the
                // session (clean session off), not the client object.
                let client = try MosquittoClient(
                    .init(broker: settings.broker, clientID: settings.clientID, cleanSession: false,
                          caFile: settings.caFile, keepAlive: settings.keepAlive, maximumPayload: settings.maximumPayload),
                    logger: logger, onMessage: { onEvent(.message($0)) })
                end = session(client, onEvent)
            } catch {
                return error
            }
            switch end {
            case .stopped:
                return nil
            case .paused:
                while isPaused && !isStopped {
                    _ = wake.wait(timeout: .now() + .seconds(1))
                }
            case .fatal(let error):
                return error
            case .lost(let error, let stable):
                // The client that held it all is gone: glibc may give the memory back.
                switch error {
                case .overwhelmed, .protocolViolation: HeapUsage.giveBack()
                default: break
                }
                if stable { attempt = 0 }
                let wait = settings.backoff.delay(after: attempt)
                attempt += 1
                onEvent(.disconnected(error, retryIn: wait))
                // Woken by a stop, or by a resume that finds nothing paused: the latter waits on.
                let until = DispatchTime.now() + .milliseconds(Int(wait.milliseconds))
                while wake.wait(timeout: until) == .success, !isStopped {}
            }
        }
        return nil
    }

    /// A connection the broker closed before any answer: most often the other kind of port, TLS
    /// spoken to a plain listener or plain MQTT to a TLS one, which only a hint tells apart from
    /// a broker that is going down.
    private func closedBeforeAnswer(_ error: BrokerError) -> BrokerError {
        let port = settings.broker.port
        let hint = settings.broker.usesTLS
            ? "if port \(port) is a plain MQTT listener, the URL wants mqtt://"
            : "if port \(port) is a TLS listener, the URL wants mqtts://"
        switch error {
        case .connectionLost(let broker):
            return .unreachable(broker: broker, reason: "it closed the connection before answering (\(hint))")
        case .unreachable(let broker, let reason)
            where ["closed before", "unexpected eof", "reset by peer", "Broken pipe"].contains(where: reason.contains):
            // Over TLS, libmosquitto leaves a refused connection looking like a closed one.
            let nothing = reason.contains("refused or closed") ? "nothing listens there, or " : ""
            return .unreachable(broker: broker, reason: "\(reason) (\(nothing)\(hint))")
        default:
            return error
        }
    }

    /// One connection, from its start to its end.
    private func session(_ client: MosquittoClient, _ onEvent: @Sendable (Event) -> Void) -> SessionEnd {
        // Paused before it began (a receiver that starts full): not even a connection.
        if isPaused { return .paused }
        let started = client.connect()
        guard started == MosquittoClient.success else {
            // A TLS handshake can fail inside the connect call itself, and an untrusted
            // certificate is no reason to try again.
            return .fatalOrLost(client.failure(started))
        }
        var answerBy = ContinuousClock.now + settings.connectTimeout
        var connected = false
        var connectedAt: ContinuousClock.Instant?
        var subscription: (messageID: Int32, sessionPresent: Bool)?
        // What the process held before this connection: growth beyond it is what the broker made
        // libmosquitto keep (deliveries run beside it, but hold little: bodies go to disk).
        let heapAtStart = HeapUsage.inUse()
        var heapCheckedAt = ContinuousClock.now
        let broker = settings.broker.server
        let ceiling = settings.heapCeiling
        // What the heap's growth says of the broker, measured now; at a message, at least the
        // payload libmosquitto holds for it. The heap is the whole process's: what a delivery
        // beside it frees meanwhile hides as much of the broker's growth (a full test suite's
        // other tests hid a 96 MiB message under a 32 MiB ceiling), but not the payload's size.
        func overwhelmed(holding payload: Int = 0) -> BrokerError? {
            let held = max(HeapUsage.inUse() - heapAtStart, payload)
            return held > ceiling ? .overwhelmed(broker: broker, heldBytes: held) : nil
        }
        client.onPublishRead { [unowned client] qos, payload in
            // Subscribed at QoS 1, so a broker may send no QoS 2.
            if qos == 2 {
                client.cut(.protocolViolation(broker: broker, what: "a QoS 2 message on a subscription granted QoS 1"))
                return
            }
            // At every message: one large message may arrive whole within one loop step, and
            // must not be delivered once it made the process hold too much. mallinfo2 costs
            // microseconds; pushes come far apart.
            if let error = overwhelmed(holding: payload) { client.cut(error) }
        }
        while true {
            if isStopped {
                if connected { client.disconnect() }
                return .stopped
            }
            if isPaused {
                if connected { client.disconnect() }
                return .paused
            }
            let code = client.loop(timeout: Self.step)
            if let connack = client.takeConnack() {
                guard connack.code == 0 else { return .fatalOrLost(client.refusal(connack.code)) }
                connected = true
                connectedAt = .now
                answerBy = ContinuousClock.now + settings.connectTimeout
                // Every time, even when the session is present: a changed filter must take
                // effect, and the retained message it brings again is fetched nothing twice by
                // the store's rules.
                for filter in settings.formerFilters where filter != settings.broker.topic {
                    _ = client.unsubscribe(filter)
                }
                let subscribed = client.subscribe(settings.broker.topic)
                guard subscribed.code == MosquittoClient.success else {
                    return .lost(client.failure(subscribed.code), stable: false)
                }
                subscription = (subscribed.messageID, connack.sessionPresent)
                logger.debug("connected to the broker", metadata: [
                    "broker": "\(settings.broker)", "sessionPresent": "\(connack.sessionPresent)", "clientID": "\(settings.clientID)",
                ])
            }
            if let pending = subscription, let granted = client.takeSubscription(pending.messageID) {
                subscription = nil
                // 0x80: the broker refused the filter (its ACL).
                if granted.contains(where: { $0 > 2 }) {
                    client.disconnect()
                    return .fatal(.subscriptionRefused(broker: settings.broker.server, topic: settings.broker.topic))
                }
                onEvent(.subscribed(sessionPresent: pending.sessionPresent))
            }
            if let violation = client.takeViolation() {
                return .lost(violation, stable: false)
            }
            guard code == MosquittoClient.success else {
                // A broker that drops the connection right after taking it (another client with
                // the same id, a broker in a crash loop) is not met at once every time.
                let stable = connectedAt.map { ContinuousClock.now - $0 >= Self.stableAfter } ?? false
                let failure = client.failure(code)
                return .fatalOrLost(connected ? failure : closedBeforeAnswer(failure), stable: stable)
            }
            if ContinuousClock.now - heapCheckedAt >= Self.heapCheckInterval {
                heapCheckedAt = .now
                if let error = overwhelmed() {
                    // No DISCONNECT: a broker that reads nothing would not take it.
                    return .lost(error, stable: false)
                }
            }
            if !connected, let refused = client.pendingSocketError() {
                client.disconnect()
                return .lost(closedBeforeAnswer(refused), stable: false)
            }
            if subscription != nil, ContinuousClock.now > answerBy {
                // Connected, and the subscription never acknowledged: as good as no answer.
                client.disconnect()
                let waited = Int(settings.connectTimeout.inSeconds.rounded())
                return .lost(.unreachable(broker: settings.broker.server, reason: "the subscription was not acknowledged within \(waited) s"),
                             stable: false)
            }
            if !connected, ContinuousClock.now > answerBy {
                client.disconnect()
                let waited = Int(settings.connectTimeout.inSeconds.rounded())
                return .lost(.unreachable(broker: settings.broker.server, reason: "no answer within \(waited) s"), stable: false)
            }
        }
    }
}
