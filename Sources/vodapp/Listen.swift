import ArgumentParser
import CommandSupport
import Foundation
import VODAppListen

struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Receive pushes over UDP (the simulator protocol) and HTTP, and deliver each one.",
        discussion: """
        UDP: one datagram carries one payload, as the SimulatorRemoteNotifications library \
        expected, so this works:
          echo -n '{"aps":{"content-available":1},"playlist":{…}}' | nc -4u -w1 localhost 9930

        HTTP: POST /push with the payload as the body answers 202 {"delivery": "<id>"}; \
        POST /push?wait=1 answers 200 with the report once the delivery ends; an invalid payload \
        400, a bad or missing signature (with --secret) 401, a body over 1 MiB 413, a full queue \
        429, too many bodies at once 503; GET /health answers 200.

        With --secret, or VODAPP_WEBHOOK_SECRET (better: it stays out of ps), every HTTP push \
        must carry X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>. UDP cannot be \
        signed: keep it on loopback, or turn it off with --no-udp.

        Examples:
          vodapp listen --dir ~/Videos/VODApp
          VODAPP_WEBHOOK_SECRET=s3cret vodapp listen --no-udp --http 0.0.0.0:9931
          systemctl --user enable --now vodapp-listen   (the unit the Debian package installs)

        Every delivery runs as `vodapp handle` would, with its own budget counted from the \
        push's arrival; deliveries share DIR and never fetch one item twice at the same time. \
        stdout gets one line when the receivers are up, then each delivery's report (one JSON \
        object per line with --json). SIGINT or SIGTERM stops receiving and cuts every \
        delivery at once, as it would stop `vodapp handle`: what was cut is kept and resumed by \
        the next delivery of the item; the listener is gone within 2 s (a second signal ends it \
        at once).

        HTTP peers cannot hold the listener: it raises its descriptor limit to the hard limit \
        and keeps connections below it (at most 1024; at the cap, the one waiting longest for \
        its request makes room); headers must come within 5 s, a body within 10 s of them; at \
        most 8 MiB of bodies are held at once (503 over it).

        Exit codes: 130/143 stopped by SIGINT/SIGTERM; 64 bad command line; 69 a receiver could \
        not bind; 73 DIR unusable.
        """
    )

    @Option(help: ArgumentHelp("Where to receive UDP pushes. Default: \(ListenerConfiguration.defaultUDP).", valueName: "host:port"), transform: OptionValue.listenAddress)
    var udp: ListenAddress = ListenerConfiguration.defaultUDP

    @Flag(help: "Do not receive UDP pushes.")
    var noUdp = false

    @Option(help: ArgumentHelp("Where to receive HTTP pushes. Default: \(ListenerConfiguration.defaultHTTP).", valueName: "host:port"), transform: OptionValue.listenAddress)
    var http: ListenAddress = ListenerConfiguration.defaultHTTP

    @Flag(help: "Do not receive HTTP pushes.")
    var noHttp = false

    @Option(help: ArgumentHelp("Require HTTP pushes signed with this secret. Default: $VODAPP_WEBHOOK_SECRET.", valueName: "secret"))
    var secret: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Most pushes waiting for a free delivery slot; more are refused (429).", valueName: "n"))
    var queue: Int = DeliveryQueue.defaultCapacity

    @Option(parsing: .unconditional, help: ArgumentHelp("Most deliveries running at once.", valueName: "n"))
    var parallel: Int = DeliveryQueue.defaultConcurrency

    @OptionGroup var handling: HandlingOptions

    @Flag(help: "Print each delivery's report as one JSON object per line on stdout.")
    var json = false

    func validate() throws {
        guard !(noUdp && noHttp) else { throw ValidationError("--no-udp and --no-http leave nothing to listen on") }
        guard (1...10_000).contains(queue) else { throw ValidationError("--queue must be between 1 and 10000, not \(queue)") }
        guard (1...64).contains(parallel) else { throw ValidationError("--parallel must be between 1 and 64, not \(parallel)") }
        if let secret, secret.isEmpty { throw ValidationError("--secret must not be empty") }
        if !handling.headers.isEmpty, handling.headerHosts.isEmpty {
            // A push names its own URLs, and UDP pushes come from any local process: without a
            // list of hosts, any of them could send the headers to a server it runs.
            throw ValidationError("--header needs --header-host HOST with listen: a push names its own URLs, so it could collect the headers")
        }
    }

    func run() async throws {
        let logger = LogSetup.bootstrap(quiet: handling.quiet, verbose: handling.verbose, level: handling.logLevel, normal: .notice)
        // The contract's 2 s: cut deliveries record their partials in well under that.
        let signals = await SignalTrap(grace: 1.8)
        var delivery = handling.deliveryOptions
        // A listener outlives its deliveries: each notification can wait for its click.
        delivery.offersOpenFolder = true
        let configuration = ListenerConfiguration(
            udp: noUdp ? nil : udp,
            http: noHttp ? nil : http,
            secret: secret ?? Environment.value("VODAPP_WEBHOOK_SECRET"),
            queueCapacity: queue,
            concurrency: parallel,
            delivery: delivery
        )
        let output = ListenerOutput(json: json, logger: logger)
        try await Listener(configuration: configuration, logger: logger, attention: .logged(to: logger)).run(
            stop: signals.stop,
            gracefulShutdownSignals: [],
            onReady: { output.ready($0) },
            onDelivery: { output.delivered($0, $1) }
        )
        throw ExitCode(signals.exitCode ?? 0)
    }
}
