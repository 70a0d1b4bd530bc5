import CFileShims
import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import UnixSignals
import VODAppBase
import VODAppDelivery
import VODAppHTTPGuards
import VODAppMediaDirectory
import VODAppNotify
import VODAppPayload

/// `vodapp listen`: the UDP and HTTP receivers and the queue behind them, run as one service group.
///
/// Each accepted push becomes one `Delivery`, exactly as `vodapp handle` would run it; item locks
/// in DIR keep overlapping playlists from fetching an item twice at once.
public struct Listener: Sendable {
    /// A receiver that is up, with the address it actually bound (port 0 becomes a real port).
    public enum Endpoint: Sendable, Equatable, CustomStringConvertible {
        case udp(String)
        case http(String)
        /// A broker subscription, up once the broker acknowledged it.
        case mqtt(String)

        var order: Int {
            switch self {
            case .udp: 0
            case .http: 1
            case .mqtt: 2
            }
        }

        public var description: String {
            switch self {
            case .udp(let address): "udp://\(address)"
            case .http(let address): "http://\(address)/push"
            case .mqtt(let broker): broker
            }
        }
    }

    public let configuration: ListenerConfiguration
    private let notifier: any Notifier
    private let logger: Logger
    private let attention: Attention

    /// - Parameters:
    ///   - logger: the listener's diagnostics, at info and below.
    ///   - attention: what the person running it must hear of: refused pushes (a few of each
    ///     kind at a time), problems of its deliveries.
    public init(configuration: ListenerConfiguration, notifier: any Notifier = LibNotifyNotifier(), logger: Logger,
                attention: Attention) {
        self.configuration = configuration
        self.notifier = notifier
        self.logger = logger
        self.attention = attention
    }

    /// Runs until `stop` is asked (or one of `gracefulShutdownSignals` arrives, or the task is
    /// cancelled), then stops receiving and ends.
    ///
    /// `stop` is what `vodapp listen` hands a signal to, as `handle` does: it cuts every delivery
    /// in flight at once (what can be resumed is kept and recorded) and the queued ones before
    /// they fetch anything, so the listener is gone within the contract's 2 s. A graceful shutdown
    /// without it lets the accepted deliveries finish within their budgets.
    /// - Parameters:
    ///   - stop: asked to stop, it ends the listener and cuts its deliveries.
    ///   - onReady: called once every receiver is bound, with the addresses they bound, and a
    ///     broker subscription is acknowledged (a broker that is down is waited for: not fatal).
    ///   - onDelivery: called as each delivery ends.
    /// - Throws: `ListenerError` when DIR is unusable or a receiver cannot bind; `BrokerError` when
    ///   the broker refuses what only a person can change (credentials, trust, the client id).
    public func run(
        stop: StopRequest? = nil,
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onReady: @escaping @Sendable ([Endpoint]) -> Void = { _ in },
        onDelivery: @escaping @Sendable (DeliveryTicket, DeliveryTicket.Outcome) -> Void = { _, _ in }
    ) async throws {
        // A listener lives for months. glibc's threads' heaps keep their free top until it passes
        // a limit that freeing large blocks raises to 64 MiB, and malloc_trim leaves a thread's
        // heap's top alone: a listener held 28 MiB more after each round of 16 deliveries of
        // 20,000-segment streams (85 MiB over idle after three). With the limits fixed low it
        // holds 3 MiB over idle after three rounds, and its deliveries take as long
        // (Benchmarks/hls-streams.py --rounds 3).
        vod_keep_heap_trimmed()
        Delivery.expectOverlappingDeliveries()
        do {
            try configuration.delivery.prepareDirectory()
        } catch {
            throw ListenerError.directoryUnusable(error)
        }
        for warning in configuration.warnings {
            attention.warn(warning)
        }
        for note in configuration.notes {
            attention.note(note)
        }
        let warnings = WarningLimiter(attention: attention)
        // Peers and transfers cost descriptors; the soft limit (often 1,024) is no reason to run out.
        let descriptors = OpenFileLimit.raiseToHard()

        let options = configuration.delivery
        let retryWakes = RetryService.wakeUps()
        let queue = DeliveryQueue(
            capacity: configuration.queueCapacity, concurrency: configuration.concurrency,
            logger: logger, onCompletion: { ticket, outcome in
                retryWakes.continuation.yield(())
                onDelivery(ticket, outcome)
            }
        ) { [notifier, logger, attention] payload, ticket throws(MediaDirectoryError) in
            var logger = logger
            logger[metadataKey: "delivery"] = "\(ticket.id)"
            // The person's credentials go only with a push something vouches for, and only such a
            // push may make room by removing what others brought.
            return try await Delivery(options: options.forPush(vouchedBy: ticket.authentication), notifier: notifier, logger: logger,
                                      attention: attention.adding(["delivery": "\(ticket.id)"]))
                .run(payload, from: ticket.origin, started: ticket.arrived, stop: stop)
        }

        // One memory for HTTP and MQTT: a push signed for one is not taken again from the other.
        // Kept in DIR's work area, so that a restart does not forget it.
        let signatures = SharedSignatureMemory(keptAt: configuration.secret == nil ? nil : options.directory + "/.vodapp/signatures")
        var roster: ConnectionRoster?
        let expected = (configuration.udp == nil ? 0 : 1) + (configuration.http == nil ? 0 : 1) + (configuration.mqtt == nil ? 0 : 1)
        let readiness = Readiness(expected: expected, onReady: onReady)
        // After the queue, so that it stops first: no retry is offered to a queue that drains.
        var services: [any Service] = [queue, RetryService(options: options, queue: queue, wakes: retryWakes, logger: logger, attention: attention)]
        if let udp = configuration.udp {
            services.append(DatagramReceiver(address: udp, queue: queue, logger: logger, warnings: warnings) { local in
                readiness.add(.udp(local.shown))
            })
        }
        if let mqtt = configuration.mqtt {
            services.append(BrokerReceiver(
                settings: mqtt, options: options, queue: queue, poll: configuration.pollOnConnect,
                authenticator: configuration.secret.map { PushAuthenticator(secret: $0, memory: signatures) },
                stop: stop, logger: logger, attention: attention, warnings: warnings
            ) {
                readiness.add(.mqtt(mqtt.broker.description))
            })
        }
        if let http = configuration.http {
            let limits = configuration.httpLimits
                ?? HTTPLimits.fitting(descriptors: descriptors, transfers: configuration.concurrency * options.jobs)
            logger.info("HTTP limits", metadata: [
                "connections": "\(limits.maximumConnections)", "headerTimeout": "\(limits.headerTimeout)",
                "bodyTimeout": "\(limits.bodyTimeout)", "bufferedBytes": "\(limits.maximumBufferedBytes)",
            ])
            let router = PushEndpoint.router(
                queue: queue, signature: configuration.secret.map { PushAuthenticator(secret: $0, memory: signatures) },
                retryAfter: Int(options.budget.inSeconds.rounded(.up)), maximumBufferedBytes: limits.maximumBufferedBytes,
                warnings: warnings
            )
            let connections = ConnectionRoster(capacity: limits.maximumConnections, warnings: warnings)
            roster = connections
            // Headers are a few hundred bytes from any webhook sender; NIO's 80 KiB allowance per
            // connection would let idle peers hold 80 MiB at the connection cap.
            let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
                maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 16 * 1024, maxHeaderFieldCount: 100)
            let application = Application(
                router: router,
                server: .http1(configuration: .init(
                    additionalChannelHandlers: [ConnectionGuard(roster: connections, limits: limits, warnings: warnings)],
                    httpDecoderConfiguration: decoder
                )),
                configuration: .init(address: .hostname(http.host, port: http.port), serverName: "vodapp"),
                onServerRunning: { channel in
                    readiness.add(.http(channel.localAddress.map(\.shown) ?? "\(http)"))
                },
                logger: logger
            )
            services.append(BindFailureNaming(service: application, address: http, started: readiness))
        }
        // Services stop in reverse order: receivers first, then the queue drains.
        let group = ServiceGroup(configuration: .init(
            services: services,
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: logger
        ))
        stop?.onStop { [roster] _ in
            // Nothing more is accepted from here; the queued pushes start, find the stop, and end.
            queue.refuseNewPushes()
            roster?.closeWaiting()
            Task { await group.triggerGracefulShutdown() }
        }
        try await group.run()
    }

    /// Collects the bound endpoints and reports them once, when all are up.
    final class Readiness: Sendable {
        private let state = NIOLockedValueBox<[Endpoint]>([])
        private let expected: Int
        private let onReady: @Sendable ([Endpoint]) -> Void

        init(expected: Int, onReady: @escaping @Sendable ([Endpoint]) -> Void) {
            self.expected = expected
            self.onReady = onReady
            if expected == 0 { onReady([]) }
        }

        func add(_ endpoint: Endpoint) {
            let all = state.withLockedValue { endpoints -> [Endpoint]? in
                endpoints.append(endpoint)
                // In one order, whichever came up first: UDP, HTTP, MQTT.
                return endpoints.count == expected ? endpoints.sorted { $0.order < $1.order } : nil
            }
            if let all { onReady(all) }
        }

        func isUp(_ match: (Endpoint) -> Bool) -> Bool {
            state.withLockedValue { $0.contains(where: match) }
        }
    }

    /// Hummingbird reports a port in use as a bare NIO error; this names the address instead.
    struct BindFailureNaming: Service {
        let service: any Service
        let address: ListenAddress
        let started: Readiness

        func run() async throws {
            do {
                try await service.run()
            } catch {
                let bound = started.isUp { if case .http = $0 { true } else { false } }
                if bound { throw error }
                throw ListenerError.cannotBind(protocol: "http", address: address, reason: ListenerError.reason(error, protocol: "http"))
            }
        }
    }
}
