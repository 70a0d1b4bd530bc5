import Foundation
import Logging
import VODAppBase
import VODAppDelivery
import VODAppListen
import VODAppMQTT
import VODAppMediaDirectory
import VODAppNotify
import VODAppReport
import VODAppSamples

/// `vodapp-push demo`: the whole path in one process, offline. The sample server serves the
/// VODApp playlist on loopback, a listener receives a push exactly as `vodapp listen` would, the
/// push goes out as a real datagram (or POST), and the delivery fetches, drops and notifies.
public struct PushDemo: Sendable {
    public enum Via: String, CaseIterable, Sendable {
        case udp, http
        /// Through an MQTT broker the demo starts (Debian's mosquitto, when installed).
        case mqtt
    }

    public let options: DeliveryOptions
    public let via: Via
    public let rate: Int?
    private let notifier: any Notifier
    private let logger: Logger
    private let attention: Attention

    public init(options: DeliveryOptions, via: Via = .udp, rate: Int? = nil,
                notifier: any Notifier = LibNotifyNotifier(), logger: Logger, attention: Attention) {
        self.options = options
        self.via = via
        self.rate = rate
        self.notifier = notifier
        self.logger = logger
        self.attention = attention
    }

    private enum Event: Sendable {
        case ready([Listener.Endpoint])
        case delivered(DeliveryTicket.Outcome)
        case stopped(any Error)
    }

    /// Runs the demo and returns the delivery's report.
    /// - Parameter say: told each step as it happens, one line each.
    public func run(say: @escaping @Sendable (String) -> Void) async throws(DemoError) -> DeliveryReport {
        let server: SampleServer
        do {
            server = try await SampleServer.start(port: 0, rate: rate)
        } catch {
            throw .cannotServe("\(error)")
        }
        say("Serving the sample playlist on \(server.baseURL)\(rate.map { " at \($0) bytes/s" } ?? "")")
        var broker: DemoBroker?
        if via == .mqtt {
            do {
                broker = try await DemoBroker.start()
            } catch {
                await server.shutdown()
                throw .cannotListen(error.description)
            }
            say("Started an MQTT broker (mosquitto) on 127.0.0.1:\(broker?.port ?? 0)")
        }
        let outcome = await deliver(SampleCatalogue.payload(baseURL: server.baseURL), broker: broker, say: say)
        broker?.stop()
        await server.shutdown()
        return try outcome.get()
    }

    private func deliver(_ payload: String, broker: DemoBroker?,
                         say: @escaping @Sendable (String) -> Void) async -> Result<DeliveryReport, DemoError> {
        let loopback = ListenAddress(host: "127.0.0.1", port: 0)
        var configuration = ListenerConfiguration(udp: via == .udp ? loopback : nil, http: via == .http ? loopback : nil,
                                                  delivery: options)
        if let broker, let url = try? BrokerURL("mqtt://127.0.0.1:\(broker.port)/vodapp/demo", for: .subscribe) {
            // A session of its own each time: the demo's broker lives for the demo only.
            configuration.mqtt = BrokerSubscription.Settings(
                broker: url, clientID: "vodapp-demo-" + String(UInt32.random(in: 0...UInt32.max), radix: 16))
        }
        let listener = Listener(configuration: configuration, notifier: notifier, logger: logger, attention: attention)
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        // Stopped as a signal would stop it, not cancelled: a cancelled HTTP server logs its
        // shutdown as errors on a run that went well.
        let stop = StopRequest()
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await listener.run(stop: stop, gracefulShutdownSignals: [],
                                           onReady: { sink.yield(.ready($0)) },
                                           onDelivery: { sink.yield(.delivered($1)) })
                    sink.yield(.stopped(CancellationError()))
                } catch {
                    sink.yield(.stopped(error))
                }
            }
            var result: Result<DeliveryReport, DemoError> = .failure(.cannotListen("the listener stopped"))
            events: for await event in events {
                switch event {
                case .ready(let endpoints):
                    guard let endpoint = endpoints.first else {
                        result = .failure(.cannotListen("no receiver came up"))
                        break events
                    }
                    say("vodapp is listening on \(endpoint), with media going to \(options.directory)")
                    do {
                        let body = try PushMessage(data: Data(payload.utf8)).body
                        _ = try await PushSender().send(body, to: destination(of: endpoint), secret: nil)
                        say("Sent the push: \(body.count) bytes of JSON to \(endpoint)")
                    } catch {
                        result = .failure(.cannotPush("\(error)"))
                        break events
                    }
                case .delivered(let outcome):
                    result = outcome.mapError { .deliveryFailed($0) }
                    break events
                case .stopped(let error):
                    result = .failure(.cannotListen("\(error)"))
                    break events
                }
            }
            stop.stop(because: "the demo is over")
            await group.waitForAll()
            return result
        }
    }

    private func destination(of endpoint: Listener.Endpoint) -> PushDestination {
        PushDestination(endpoint.description) ?? .defaultUDP
    }
}

/// Why the demo could not finish. Each renders as one line.
public enum DemoError: Error, Sendable, CustomStringConvertible {
    case cannotServe(String)
    case cannotListen(String)
    case cannotPush(String)
    case deliveryFailed(MediaDirectoryError)

    public var description: String {
        switch self {
        case .cannotServe(let reason): "cannot start the sample server: \(reason)"
        case .cannotListen(let reason): "cannot start the listener: \(reason)"
        case .cannotPush(let reason): "cannot send the push: \(reason)"
        case .deliveryFailed(let error): error.description
        }
    }
}

extension DemoError: ExitStatusProviding {
    public var exitStatus: ExitStatus {
        switch self {
        case .deliveryFailed(let error): error.exitStatus
        default: .unavailable
        }
    }
}
