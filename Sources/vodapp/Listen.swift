import ArgumentParser
import CommandSupport
import Foundation
import VODAppDelivery
import VODAppListen
import VODAppMQTT

struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Receive pushes over UDP (the simulator protocol), HTTP or MQTT, and deliver each one.",
        discussion: """
        Every push is delivered as `vodapp handle` would deliver it, with the same options and \
        its own notification; its budget counts from the push's arrival. Up to --parallel \
        deliveries run at once and --queue wait; deliveries share DIR and never fetch one item \
        twice.

        UDP (--udp, default 127.0.0.1:9930; --no-udp): one datagram carries one payload, as \
        the SimulatorRemoteNotifications library expected, so this works:
          echo -n '{"aps":{"content-available":1},"playlist":{...}}' |
            nc -4u -w1 localhost 9930

        HTTP (--http, default 127.0.0.1:9931; --no-http): POST /push with the payload as the \
        body answers 202 {"delivery": "<id>"}; POST /push?wait=1 answers 200 with the report \
        once the delivery ends; an invalid payload 400, a bad or missing signature (with a \
        secret) 401, a signature already accepted 409, a body over 1 MiB 413, a full queue \
        429, too many bodies at once 503; GET /health answers 200.

        With --secret, or VODAPP_WEBHOOK_SECRET (better: it stays out of ps), every HTTP push \
        must carry X-VODApp-Timestamp: <Unix seconds> and X-VODApp-Signature: v1=<hex \
        HMAC-SHA256 of "<timestamp>.<body>"> (vodapp-push send --secret signs so). A push \
        signed more than 5 minutes before (or after) it arrives is refused (401), and so is a \
        signature already accepted (409). The body-only X-Hub-Signature-256 is not enough: it \
        is for the adnanh/webhook route. Every MQTT message must then be a signed envelope \
        (see docs/LISTEN.md, "Signed messages"), and UDP, which cannot be signed, is off \
        unless --udp is given.

        MQTT, for a machine behind NAT that nothing can reach: --mqtt subscribes to a topic \
        filter on a broker at QoS 1 with a persistent session (clean session off, a client id \
        made from /etc/machine-id and DIR, or --mqtt-client-id), so pushes published while the \
        machine was off or away arrive when it connects again. A broker that is down or drops \
        the connection is retried after a jittered wait (1 s, doubling to 60 s). Each push is \
        kept in DIR/.vodapp/spool before it is delivered and removed once its delivery ended, so \
        one the broker handed over survives a crash or a stop. The password: \
        --mqtt-password-file, else VODAPP_MQTT_PASSWORD, else the URL's (which ps shows). \
        mqtts:// verifies the broker's certificate against --mqtt-cacert, else --cacert, else \
        the system's CAs. --poll URL is asked once on every (re)connection, for a push the \
        broker did not keep. Refused credentials end the listener with exit 77; an untrusted \
        certificate or a refused client id or topic with 69.

        --header, --cookies and --user-agent go only with authenticated pushes: signed ones \
        (HTTP or MQTT, with --secret) and --poll's. The items of other pushes are fetched \
        without them; a broker's login does not count, since it cannot tell who published.

        What a delivery leaves unfinished is retried by the listener on its own, with no push: \
        an item cut by the budget at once while each cut keeps more (a slow link finishes in \
        several budgets), a failure when its backoff ends (Retry-After, else 1 min doubling to \
        6 h), a deferred item once the connection is not metered or power saver is off. \
        `vodapp status` says when each is due.

        stdout gets one line when the receivers are up, then each delivery's report (one JSON \
        object per line with --json). SIGINT or SIGTERM stops receiving and cuts every \
        delivery at once, as it would stop `vodapp handle`: what was cut is kept and resumed by \
        the next delivery of the item; the listener is gone within 2 s (a second signal ends it \
        at once).

        HTTP peers cannot hold the listener: it raises its descriptor limit to the hard limit \
        and keeps connections below it (at most 1024; at the cap, the one waiting longest for \
        its request makes room); headers must come within 5 s, a body within 10 s of them; at \
        most 8 MiB of bodies are held at once (503 over it).

        Exit codes: 130/143/129 stopped by SIGINT/SIGTERM/SIGHUP; 64 bad command line; 69 a \
        receiver could not bind, or the broker refused the client id, the topic or its \
        certificate was not trusted; 73 DIR unusable; 77 the broker refused the credentials.

        Examples:
          vodapp listen --dir ~/Videos/VODApp
          VODAPP_WEBHOOK_SECRET=s3cret vodapp listen --no-udp --http 0.0.0.0:9931
          export VODAPP_MQTT_PASSWORD=s3cret
          vodapp listen --no-udp --no-http \\
            --mqtt mqtts://kiosk7@broker.example.com/vodapp/kiosks/7
          systemctl --user enable --now vodapp-listen   (the Debian package's unit)

        More: docs/LISTEN.md (installed under /usr/share/doc/vodapp/).
        """
    )

    // Optional: a secret turns UDP off unless this is given.
    @Option(help: ArgumentHelp("Where to receive UDP pushes. Default: \(ListenerConfiguration.defaultUDP), and off with a secret (UDP pushes cannot be signed).",
                               valueName: "host:port"), transform: OptionValue.listenAddress)
    var udp: ListenAddress?

    @Flag(help: "Do not receive UDP pushes.")
    var noUdp = false

    @Option(help: ArgumentHelp("Where to receive HTTP pushes. Default: \(ListenerConfiguration.defaultHTTP).", valueName: "host:port"), transform: OptionValue.listenAddress)
    var http: ListenAddress = ListenerConfiguration.defaultHTTP

    @Flag(help: "Do not receive HTTP pushes.")
    var noHttp = false

    @Option(help: ArgumentHelp("Require HTTP and MQTT pushes signed with this secret, over a time and the body. Default: $VODAPP_WEBHOOK_SECRET.", valueName: "secret"))
    var secret: String?

    @Option(name: .customLong("mqtt"), help: ArgumentHelp("Receive pushes from this MQTT broker and topic filter, mqtt[s]://[user[:password]@]host[:port]/filter (QoS 1, a persistent session).",
                               valueName: "url"),
            transform: OptionValue.brokerSubscription)
    var mqttURLs: [BrokerURL] = []

    /// One subscription per listener: a second `--mqtt` is refused, not dropped.
    private var mqtt: BrokerURL? { mqttURLs.first }

    @Option(name: .customLong("mqtt-client-id"),
            help: ArgumentHelp("The broker session's client id. Default: vodapp- and a hash of /etc/machine-id and DIR, the same at every start.",
                               valueName: "id"))
    var mqttClientID: String?

    @Option(name: .customLong("mqtt-password-file"),
            help: ArgumentHelp("Read the broker password from this file's first line. Default: $VODAPP_MQTT_PASSWORD, else the URL's.", valueName: "file"),
            completion: .file())
    var mqttPasswordFile: String?

    @Option(name: .customLong("mqtt-cacert"),
            help: ArgumentHelp("Trust the CAs in this PEM file for mqtts:// instead of the system's. Default: --cacert's file, if given.", valueName: "file"),
            completion: .file())
    var mqttCACert: String?

    @Option(help: ArgumentHelp("With --mqtt: GET a payload from this URL once on every (re)connection to the broker, for pushes the broker did not keep.",
                               valueName: "url"),
            transform: OptionValue.webURL)
    var poll: URL?

    @Option(help: ArgumentHelp("Bearer token for --poll's host. Default: $VODAPP_TOKEN.", valueName: "token"))
    var token: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Most pushes waiting for a free delivery slot; more are refused (429).", valueName: "n"))
    var queue: Int = DeliveryQueue.defaultCapacity

    @Option(parsing: .unconditional, help: ArgumentHelp("Most deliveries running at once.", valueName: "n"))
    var parallel: Int = DeliveryQueue.defaultConcurrency

    @OptionGroup var handling: HandlingOptions

    @Flag(help: "Print each delivery's report as one JSON object per line on stdout.")
    var json = false

    func validate() throws {
        if handling.dryRun {
            throw ValidationError("--dry-run is for one delivery: use it with handle, get or poll")
        }
        let secretSet = secret != nil || Environment.value("VODAPP_WEBHOOK_SECRET") != nil
        guard !((noUdp || (secretSet && udp == nil)) && noHttp && mqtt == nil) else {
            if !noUdp {
                throw ValidationError("a secret turns UDP off and --no-http leaves nothing to listen on: add --udp HOST:PORT (unsigned), --mqtt URL, or drop --no-http")
            }
            throw ValidationError("--no-udp and --no-http leave nothing to listen on: add --mqtt URL, or drop one of them")
        }
        if mqttURLs.count > 1 {
            throw ValidationError("--mqtt is given \(mqttURLs.count) times: one subscription per listener (a topic filter with + or # covers several topics)")
        }
        if mqtt == nil {
            for (given, option) in [(mqttClientID != nil, "--mqtt-client-id"), (mqttPasswordFile != nil, "--mqtt-password-file"),
                                    (mqttCACert != nil, "--mqtt-cacert"), (poll != nil, "--poll"), (token != nil, "--token")] where given {
                throw ValidationError("\(option) goes with --mqtt URL, and there is none")
            }
        }
        if let mqttClientID, let problem = BrokerClientID.problem(with: mqttClientID) {
            throw ValidationError("--mqtt-client-id: \(problem)")
        }
        if let mqttPasswordFile {
            try HandlingOptions.requireReadableFile(mqttPasswordFile, for: "--mqtt-password-file")
            _ = try Self.password(in: mqttPasswordFile)
        }
        if let mqttCACert {
            try HandlingOptions.requireReadableFile(mqttCACert, for: "--mqtt-cacert")
            try HandlingOptions.requireCertificates(mqttCACert, for: "--mqtt-cacert")
            if let mqtt, !mqtt.usesTLS {
                throw ValidationError("--mqtt-cacert is for mqtts:// brokers; \(mqtt) is plain MQTT")
            }
        }
        if let mqtt, mqtt.user == nil, mqttPasswordFile != nil || Environment.value("VODAPP_MQTT_PASSWORD") != nil {
            throw ValidationError("a broker password needs a user: write it in the URL, as mqtt://USER@\(mqtt.server)/\(mqtt.topic)")
        }
        guard (1...10_000).contains(queue) else { throw ValidationError("--queue must be between 1 and 10000, not \(queue)") }
        guard (1...64).contains(parallel) else { throw ValidationError("--parallel must be between 1 and 64, not \(parallel)") }
        if let secret, secret.isEmpty { throw ValidationError("--secret must not be empty") }
        // Set but empty (a settings file's `VODAPP_WEBHOOK_SECRET=` left blank) is a mistake, not
        // a wish for unsigned pushes: failing open would take every push unauthenticated.
        if secret == nil, let set = ProcessInfo.processInfo.environment["VODAPP_WEBHOOK_SECRET"], set.isEmpty {
            throw ValidationError("VODAPP_WEBHOOK_SECRET is set but empty: give it a secret, or unset it to take unsigned pushes")
        }
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
        let secret = secret ?? Environment.value("VODAPP_WEBHOOK_SECRET")
        var configuration = ListenerConfiguration(
            // UDP cannot be signed: with a secret, only an explicit --udp turns it on.
            udp: noUdp ? nil : udp ?? (secret == nil ? ListenerConfiguration.defaultUDP : nil),
            http: noHttp ? nil : http,
            secret: secret,
            mqtt: try brokerSettings(directory: delivery.directory),
            pollOnConnect: poll.map { PayloadPoll(url: $0, token: token ?? Environment.value("VODAPP_TOKEN")) },
            queueCapacity: queue,
            concurrency: parallel,
            delivery: delivery
        )
        configuration.udpTurnedOff = noUdp
        let output = ListenerOutput(json: json, logger: logger)
        try await Listener(configuration: configuration, logger: logger, attention: .logged(to: logger)).run(
            stop: signals.stop,
            gracefulShutdownSignals: [],
            onReady: { output.ready($0) },
            onDelivery: { output.delivered($0, $1) }
        )
        throw ExitCode(signals.exitCode ?? 0)
    }

    /// The first line of a password file: at most 4 KiB of it is read (the file could be anything
    /// a typo named), and it must be UTF-8 and not empty.
    static func password(in path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ValidationError("--mqtt-password-file \(path): cannot be read")
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        guard let text = String(data: head, encoding: .utf8) else {
            throw ValidationError("--mqtt-password-file \(path): its first line is not UTF-8 text")
        }
        let line = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !line.isEmpty else { throw ValidationError("--mqtt-password-file \(path): its first line is empty") }
        return line
    }

    /// The subscription's settings, the password from the file or the environment before the URL's.
    private func brokerSettings(directory: String) throws -> BrokerSubscription.Settings? {
        guard var broker = mqtt else { return nil }
        if let mqttPasswordFile {
            broker = broker.with(password: try Self.password(in: mqttPasswordFile))
        } else if let password = Environment.value("VODAPP_MQTT_PASSWORD") {
            broker = broker.with(password: password)
        }
        return BrokerSubscription.Settings(
            broker: broker, clientID: mqttClientID ?? BrokerClientID.standard(directory: directory),
            caFile: mqttCACert ?? handling.certificateAuthorities
        )
    }
}
