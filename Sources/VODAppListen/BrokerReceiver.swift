import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import VODAppBase
import VODAppDelivery
import VODAppMQTT
import VODAppPayload

/// The MQTT side of `vodapp listen`: a persistent QoS 1 subscription whose messages become
/// deliveries, for a device behind NAT that no push can reach unless it keeps a connection out.
///
/// What the broker hands over is made durable in the spool (`PushSpool`) before it is queued,
/// since the broker counts it delivered from then on; the spool is replayed at every start. On
/// every (re)connection, `poll` (when given) is asked once too, for a push the broker dropped
/// (a queue limit, an expired session) while the device was away.
final class BrokerReceiver: Service, Sendable {
    let subscription: BrokerSubscription
    private let queue: DeliveryQueue
    private let spool: PushSpool
    private let record: SubscriptionRecord
    private let poll: PayloadPoll?
    /// With a secret: every message must be a signed envelope, taken once.
    private let authenticator: PushAuthenticator?
    /// What vouches for the messages that pass: their signature, or the broker's credentials.
    private let authentication: PushAuthentication
    /// The listener's delivery options: DIR, and the budget a poll on connection has.
    private let options: DeliveryOptions
    private let stop: StopRequest?
    private let logger: Logger
    private let attention: Attention
    private let warnings: WarningLimiter
    private let onFirstSubscription: @Sendable () -> Void
    /// Connections the broker closed soon after taking them, in a row, and when the last
    /// subscription came: the mark of another client taking the session under the same id.
    private let churn = NIOLockedValueBox<(subscribedAt: ContinuousClock.Instant?, quickLosses: Int)>((nil, 0))
    /// Whether the first subscription was reported as the receiver being up.
    private let announced = NIOLockedValueBox(false)
    /// Whether the subscription is paused because the spool is full.
    private let pausedForRoom = NIOLockedValueBox(false)
    /// Whether this DIR subscribed under this client id before this run: a session the broker
    /// then says it does not have was lost (a broker restarted without saving it, an expiry).
    private let subscribedBefore: Bool
    /// Spool entries queued or running: replaying the spool skips them.
    private let inFlight = NIOLockedValueBox<Set<PushSpool.Entry>>([])
    /// The pushes kept and not yet delivered, by a hash of their bytes: a broker that sends a
    /// message again (a QoS 1 re-send, a QoS 2 release twice) while its first copy is still
    /// being delivered does not start a second delivery of it.
    private let held = NIOLockedValueBox<[UInt64: PushSpool.Entry]>([:])
    /// How often the spool is looked at for pushes a free slot could take.
    static let feedInterval: Duration = .seconds(1)

    /// How long a push whose delivery could not use DIR waits before it is tried again: a DIR
    /// that went wrong does not mend in a moment, and trying at once would spin.
    static let unusableDirectoryRetry: Duration = .seconds(30)

    init(settings: BrokerSubscription.Settings, options: DeliveryOptions, queue: DeliveryQueue, poll: PayloadPoll?,
         authenticator: PushAuthenticator? = nil, stop: StopRequest?, logger: Logger, attention: Attention, warnings: WarningLimiter, onFirstSubscription: @escaping @Sendable () -> Void) {
        spool = PushSpool(directory: options.directory)
        record = SubscriptionRecord(directory: options.directory)
        var settings = settings
        let former = record.filter(clientID: settings.clientID)
        subscribedBefore = former != nil
        if let former, former != settings.broker.topic {
            settings.formerFilters.append(former)
        }
        // No push is larger: a larger message is dropped by its size, never copied. A signed
        // one carries the push as a JSON string, where escaping at most doubles it.
        settings.maximumPayload = authenticator == nil ? Payload.maximumSize : 2 * Payload.maximumSize + 1024
        self.authenticator = authenticator
        authentication = ListenerConfiguration.authentication(of: settings.broker, signed: authenticator != nil)
        subscription = BrokerSubscription(settings, logger: logger)
        self.queue = queue
        self.poll = poll
        self.options = options
        self.stop = stop
        self.logger = logger
        self.attention = attention
        self.warnings = warnings
        self.onFirstSubscription = onFirstSubscription
    }

    func run() async throws {
        do {
            try spool.prepare()
        } catch {
            throw ListenerError.directoryUnusable(.directoryUnusable(path: spool.path, reason: error.description))
        }
        spool.removeLeftovers()
        for name in spool.setAsideCrashed() {
            attention.warn("a kept push was being delivered each of the last \(PushSpool.crashesTolerated) times the listener died: "
                           + "set aside as \(spool.path)/\(name), not delivered again")
        }
        // A spool still full from the last run takes nothing more until deliveries make room
        // (taking even one message a start would let restarts grow it past its limit).
        pauseIfFull()
        // What a stop, a crash or a power cut left undelivered, before anything new.
        submitSpooled()
        // Spooled pushes wait in the spool, not in the queue, where their budgets would run out
        // before they began: each is handed over when a slot is free, which a delivery of any
        // receiver may free.
        let feeder = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.feedInterval)
                if stop?.reason == nil { submitSpooled() }
            }
        }
        defer { feeder.cancel() }
        // Stopped on a graceful shutdown and on cancellation alike: its thread would otherwise
        // outlive the listener. A clean DISCONNECT: the broker keeps the session and queues what
        // comes next.
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await subscription.run { [self] event in handle(event) }
            } onCancel: { [subscription] in
                subscription.stop()
            }
        } onGracefulShutdown: { [subscription] in
            subscription.stop()
        }
    }

    private func handle(_ event: BrokerSubscription.Event) {
        let broker = subscription.settings.broker
        switch event {
        case .subscribed(let sessionPresent):
            churn.withLockedValue { $0.subscribedAt = .now }
            // The notice first: whoever waits for the listening line may read the log next.
            attention.note("subscribed to \(broker)", metadata: [
                "session": "\(sessionPresent ? "kept by the broker" : "new")", "clientID": "\(subscription.settings.clientID)",
            ])
            let first = announced.withLockedValue { announced in
                defer { announced = true }
                return !announced
            }
            if !sessionPresent && (subscribedBefore || !first) {
                let lost = "\(broker.server) kept no session for this device (it restarted without saving it, or the session expired): "
                    + "pushes published while the device was away are lost there"
                if let poll {
                    attention.warn(lost + "; polling \(poll.url.absoluteString) for them")
                } else {
                    attention.warn(lost + "; --poll URL catches them (see docs/LISTEN.md, \"Behind NAT\"), and mosquitto's "
                                   + "autosave_on_changes keeps them across a crash")
                }
            }
            if first {
                record.record(clientID: subscription.settings.clientID, filter: broker.topic)
                onFirstSubscription()
            }
            if let poll {
                Task { await self.pollOnce(poll) }
            }
        case .disconnected(let error, let retryIn):
            warnings.warn("broker connection", "\(error); connecting again in \(Self.seconds(retryIn))",
                          metadata: ["broker": "\(broker)"])
            let quickLosses = churn.withLockedValue { churn -> Int in
                guard case .connectionLost = error, let at = churn.subscribedAt, ContinuousClock.now - at < .seconds(5) else {
                    churn.quickLosses = 0
                    return 0
                }
                churn.quickLosses += 1
                return churn.quickLosses
            }
            if quickLosses == 3 {
                attention.warn("\(broker.server) keeps closing the connection soon after taking it: another client using the client id "
                               + "'\(subscription.settings.clientID)' (a second listener, a machine cloned with its /etc/machine-id) is the "
                               + "usual cause; give each its own with --mqtt-client-id")
            }
        case .message(let message):
            accept(message)
        }
    }

    /// Runs on libmosquitto's thread, which answers no keep-alive meanwhile: a check, a synced
    /// write of a few kilobytes, a place in the queue.
    private func accept(_ message: BrokerMessage) {
        let origin = DeliverySource.mqtt(topic: message.topic)
        let filter = subscription.settings.broker.topic
        // A broker hands over only what the filter matches; one that sends more (a bug, a
        // compromise, a session left from another filter) is not obeyed.
        guard TopicFilter.matches(filter, topic: message.topic) else {
            warnings.warn("broker messages outside the subscription",
                          "dropped a message on a topic outside the subscription filter \(UntrustedText.sanitized(filter, limit: 200, replacingControlsWith: "?"))",
                          metadata: ["from": "\(origin)", "bytes": "\(message.size)"])
            return
        }
        guard !message.isOversized else {
            warnings.warn("invalid broker messages",
                          "dropped a message of \(message.size) bytes: a push is at most \(Payload.maximumSize) bytes (1 MiB)",
                          metadata: ["from": "\(origin)", "bytes": "\(message.size)"])
            return
        }
        // An empty retained message is how a retained push is cleared from the broker.
        guard !message.payload.isEmpty else { return }
        var bytes = message.payload
        var signed: (code: [UInt8], timestamp: Int64)?
        if let authenticator {
            do {
                let envelope = try SignedPushEnvelope(message: message.payload)
                let opened = try authenticator.open(envelope)
                bytes = opened.payload
                signed = (opened.code, envelope.timestamp)
            } catch {
                warnings.warn("unsigned broker messages", "dropped a message: \(error)",
                              metadata: ["from": "\(origin)", "bytes": "\(message.payload.count)"])
                return
            }
        } else if let envelope = try? SignedPushEnvelope(message: message.payload) {
            // Signed for a listener with a secret; without one, nothing checks it: its push is
            // taken as any other message.
            bytes = envelope.payload
        }
        let payload: Payload
        do {
            payload = try Payload(data: bytes)
        } catch {
            warnings.warn("invalid broker messages", "dropped a message: invalid payload: \(error)",
                          metadata: ["from": "\(origin)", "bytes": "\(bytes.count)"])
            return
        }
        let digest = FNV1a.hash(String(decoding: bytes, as: UTF8.self))
        if let first = held.withLockedValue({ $0[digest] }) {
            // A QoS 1 re-send of a message being delivered: not a replay, and not a second push.
            logger.debug("the same push is already being delivered", metadata: ["from": "\(origin)", "spooled": "\(first.name)"])
            return
        }
        if let authenticator, let signed {
            do {
                try authenticator.remember(signed.code, signedAt: signed.timestamp)
            } catch {
                warnings.warn("replayed broker messages", "dropped a message: \(error)",
                              metadata: ["from": "\(origin)", "bytes": "\(message.payload.count)"])
                return
            }
        }
        let entry: PushSpool.Entry
        do {
            entry = try spool.keep(bytes, topic: message.topic, signed: signed != nil)
            held.withLockedValue { $0[digest] = entry }
            pauseIfFull()
        } catch {
            pauseIfFull()
            // Delivered all the same, only not safe from a crash before its end.
            warnings.warn("spool", "\(error); delivering the push without keeping it", metadata: ["from": "\(origin)"])
            do {
                _ = try queue.submit(payload, from: origin, authentication: authentication)
            } catch {
                warnings.warn("dropped broker pushes", "dropped a push: \(error)", metadata: ["from": "\(origin)"])
            }
            return
        }
        // Kept: it starts when a slot is free (its budget with it), now or when one is.
        if queue.hasFreeSlot { submit(payload, kept: entry, from: origin, authentication: authentication) }
    }

    /// Takes no more from the broker while the spool is full: a push taken (libmosquitto has
    /// acknowledged it) and not kept would be lost, and the broker keeps what it has not handed
    /// over. A flood of pushes whose deliveries are slow cannot make one that comes after it lost.
    private func pauseIfFull() {
        let count = spool.entries().count
        guard count >= PushSpool.pauseAt, pausedForRoom.withLockedValue({ paused in
            defer { paused = true }
            return !paused
        }) else { return }
        subscription.pause()
        attention.warn("the spool holds \(count) undelivered pushes: taking no more from \(subscription.settings.broker.server), "
                       + "which keeps them, until deliveries make room")
    }

    /// Takes pushes again once deliveries have made room in the spool.
    private func resumeIfRoom() {
        guard pausedForRoom.withLockedValue({ $0 }), spool.entries().count < PushSpool.resumeBelow,
              pausedForRoom.withLockedValue({ paused in
                  defer { paused = false }
                  return paused
              }) else { return }
        attention.note("the spool has room again: taking pushes from \(subscription.settings.broker.server)")
        subscription.resume()
    }

    /// Queues a kept push; false when the queue refused it (it stays in the spool). A refusal is
    /// said for a push just received, not again for each later try of one already said.
    @discardableResult
    private func submit(_ payload: Payload, kept entry: PushSpool.Entry, from origin: DeliverySource,
                        authentication: PushAuthentication, isNew: Bool = true) -> Bool {
        guard inFlight.withLockedValue({ $0.insert(entry).inserted }) else { return true }
        let ticket: DeliveryTicket
        do {
            ticket = try queue.submit(payload, from: origin, authentication: authentication)
        } catch {
            inFlight.withLockedValue { _ = $0.remove(entry) }
            // It stays in the spool, and is queued again when a delivery ends or at the next start.
            if isNew {
                warnings.warn("queued broker pushes", "kept a push for later: \(error)", metadata: ["from": "\(origin)"])
            }
            return false
        }
        spool.markStarted(entry)
        Task {
            let outcome = await ticket.outcome()
            self.finished(entry, outcome)
        }
        return true
    }

    private func finished(_ entry: PushSpool.Entry, _ outcome: DeliveryTicket.Outcome) {
        // A delivery a stop cut is delivered again at the next start, and resumes what it kept;
        // one that could not use DIR is tried again later. Items that failed are the store's to
        // retry at the next push, as for any receiver. The file goes before the entry leaves
        // `inFlight`: a replay of the spool in between would queue it again.
        let delivered = stop?.reason == nil && (try? outcome.get()) != nil
        // Delivered, the push goes with its marker (`remove`); otherwise it stays, its delivery
        // ended alive.
        if !delivered { spool.markEnded(entry) }
        if delivered {
            // Held no more before the file goes: once the spool is empty, a copy of the push is
            // a push again (signed, it is then a replay, and refused as one).
            held.withLockedValue { held in held = held.filter { $0.value != entry } }
            spool.remove(entry)
            resumeIfRoom()
        }
        inFlight.withLockedValue { _ = $0.remove(entry) }
        guard stop?.reason == nil else { return }
        if delivered {
            submitSpooled()
        } else {
            Task {
                try? await Task.sleep(for: Self.unusableDirectoryRetry)
                if self.stop?.reason == nil { self.submitSpooled() }
            }
        }
    }

    /// Queues every kept push that is not queued yet, oldest first, while the queue takes them.
    private func submitSpooled() {
        for entry in spool.entries() where !inFlight.withLockedValue({ $0.contains(entry) }) {
            guard queue.hasFreeSlot else { break }
            guard let kept = spool.push(of: entry, limit: Payload.maximumSize), let payload = try? Payload(data: kept.payload) else {
                spool.remove(entry)
                continue
            }
            held.withLockedValue { $0[FNV1a.hash(String(decoding: kept.payload, as: UTF8.self))] = entry }
            // A kept push was checked when it came: signed then, or vouched for by nothing.
            let vouched: PushAuthentication = kept.signed ? .signed : .unauthenticated
            guard submit(payload, kept: entry, from: .mqtt(topic: kept.topic ?? "(kept from an earlier run)"),
                         authentication: vouched, isNew: false) else { break }
        }
    }

    private func pollOnce(_ poll: PayloadPoll) async {
        let origin = DeliverySource.poll(url: poll.url.absoluteString)
        let payload: Payload
        do {
            payload = try await poll.fetch(timeout: options.budget)
        } catch {
            warnings.warn("polls on connection", "the poll after connecting failed: \(error)", metadata: ["from": "\(origin)"])
            // In the delivery log too, where `vodapp status` shows it.
            poll.record(error, in: options, logger: logger, attention: attention)
            return
        }
        do {
            _ = try queue.submit(payload, from: origin, authentication: .poll)
        } catch {
            warnings.warn("polls on connection", "the poll after connecting found a push and could not queue it: \(error)",
                          metadata: ["from": "\(origin)"])
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", duration.inSeconds)
    }
}
