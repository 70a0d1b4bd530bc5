import UnitTestSupport
import Foundation
import NIOConcurrencyHelpers

/// The real Eclipse Mosquitto broker (`/usr/sbin/mosquitto`, Debian's 2.0) for one test, set up
/// as a deployment would be: persistence on (sessions and queued QoS 1 messages survive a
/// restart), no anonymous clients (a password file with one user), a plain listener and a TLS
/// listener whose certificate a test CA signed for `localhost` and `127.0.0.1`.
///
/// Its files (config, password file, CA and certificates, persistence, log) are in a scratch
/// directory of its own. `stop()` and `start()` take it down and bring it back on the same ports
/// with the same persistence, as a broker's restart would. It cannot outlive the test process
/// (`WatchedChild`).
public final class MosquittoBroker: Sendable {
    public static let user = "device"
    public static let password = "correct horse battery"

    /// The plain listener's port.
    public let port: Int
    /// The TLS listener's port.
    public let tlsPort: Int
    /// The test CA's certificate (PEM), which signed the broker's.
    public let caPath: String
    public let configPath: String
    private let scratch: ScratchDirectory
    private let logPath: String
    private let allowsAnonymous: Bool
    /// The broker's process while it runs; `stop()` and `start()` replace it.
    private let child = NIOLockedValueBox<WatchedChild?>(nil)

    public enum Failure: Error, CustomStringConvertible {
        case setUp(String)
        case didNotStart(String)

        public var description: String {
            switch self {
            case .setUp(let detail): "cannot set mosquitto up: \(detail)"
            case .didNotStart(let detail): "mosquitto did not start: \(detail)"
            }
        }
    }

    /// Sets the broker up and starts it (unless `started` is false: a broker that comes up later).
    /// - Parameter allowingAnonymous: clients without credentials may connect and publish too,
    ///   beside the accounts of the password file (a common set-up: `allow_anonymous true`).
    public init(started: Bool = true, allowingAnonymous: Bool = false) async throws {
        self.allowsAnonymous = allowingAnonymous
        scratch = try ScratchDirectory("vodapp-mosquitto")
        caPath = scratch.child("ca.pem")
        configPath = scratch.child("mosquitto.conf")
        logPath = scratch.child("mosquitto.log")
        try FileManager.default.createDirectory(atPath: scratch.child("data"), withIntermediateDirectories: true)
        try await Self.makeCertificates(in: scratch)
        let passwords = try await runTool("/usr/bin/mosquitto_passwd", ["-b", "-c", scratch.child("passwd"), Self.user, Self.password])
        guard passwords.exited, passwords.exitCode == 0 else { throw Failure.setUp("mosquitto_passwd: \(passwords.stderr)") }
        port = try portOutsideTheEphemeralRange()
        var tls = try portOutsideTheEphemeralRange()
        while tls == port { tls = try portOutsideTheEphemeralRange() }
        tlsPort = tls
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        if started { try await start() }
    }

    deinit {
        stop()
    }

    /// `mqtt://device:…@127.0.0.1:PORT/TOPIC`, or with other credentials, or none.
    public func url(topic: String, user: String? = MosquittoBroker.user, password: String? = MosquittoBroker.password) -> String {
        let credentials = user.map { user in
            password.map { "\(user):\(Self.escaped($0))@" } ?? "\(user)@"
        } ?? ""
        return "mqtt://\(credentials)127.0.0.1:\(port)/\(topic)"
    }

    /// `mqtts://device:…@localhost:TLSPORT/TOPIC`: the name the certificate carries.
    public func tlsURL(topic: String) -> String {
        "mqtts://\(Self.user):\(Self.escaped(Self.password))@localhost:\(tlsPort)/\(topic)"
    }

    /// Starts the broker (again) and waits until both listeners take connections.
    public func start() async throws {
        let launched = try await WatchedChild.launch("/usr/sbin/mosquitto", ["-c", configPath])
        child.withLockedValue { $0 = launched }
        let deadline = ContinuousClock.now + TimeBound.duration(.seconds(10))
        while ContinuousClock.now < deadline {
            if acceptsConnections(port: port), acceptsConnections(port: tlsPort) { return }
            if !launched.isRunning { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        launched.end()
        throw Failure.didNotStart(log)
    }

    /// SIGTERM (mosquitto writes its persistence file as it stops) and waits until it is gone.
    public func stop() {
        let running = child.withLockedValue { child in
            defer { child = nil }
            return child
        }
        running?.end()
    }

    /// Publishes with the real `mosquitto_pub`, at QoS 1, as the test's user: `message` as one
    /// message, or (`eachLine`) each of its lines as a message of its own (`-l`), which is how a
    /// flood is sent at the broker's own speed.
    public func mosquittoPub(_ message: Data, topic: String, eachLine: Bool = false) async throws -> ToolRun {
        try await runTool("mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-u", Self.user, "-P", Self.password, "-q", "1",
                                            "-t", topic] + (eachLine ? ["-l"] : ["-s"]), stdin: message)
    }

    /// SIGKILL, as a crash or a power cut would end it: what it had not saved yet (with
    /// mosquitto's default autosave, everything since it started) is lost.
    public func crash() {
        let running = child.withLockedValue { child in
            defer { child = nil }
            return child
        }
        running?.end(signal: SIGKILL)
    }

    /// The broker's own log, for a failure message and for what it saw (`log_type all`).
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    private var config: String {
        """
        per_listener_settings false
        persistence true
        persistence_location \(scratch.child("data"))/
        allow_anonymous \(allowsAnonymous)
        password_file \(scratch.child("passwd"))
        log_dest file \(logPath)
        log_type all
        # As root, mosquitto would switch to the user "mosquitto", which cannot read the scratch files.
        user root
        listener \(port) 127.0.0.1
        listener \(tlsPort) 127.0.0.1
        cafile \(caPath)
        certfile \(scratch.child("server.pem"))
        keyfile \(scratch.child("server.key"))

        """
    }

    /// A test CA, and the broker's certificate signed by it for localhost and 127.0.0.1.
    private static func makeCertificates(in scratch: ScratchDirectory) async throws {
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let extensions = scratch.child("server.ext")
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: extensions, atomically: true, encoding: .utf8)
        for arguments in [
            ["req", "-x509"] + curve + ["-keyout", scratch.child("ca.key"), "-out", scratch.child("ca.pem"), "-days", "1",
                                        "-subj", "/CN=vodapp test CA"],
            ["req", "-new"] + curve + ["-keyout", scratch.child("server.key"), "-out", scratch.child("server.csr"),
                                       "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", scratch.child("server.csr"), "-CA", scratch.child("ca.pem"), "-CAkey", scratch.child("ca.key"),
             "-CAcreateserial", "-out", scratch.child("server.pem"), "-days", "1", "-extfile", extensions],
        ] {
            let openssl = try await runTool("/usr/bin/openssl", arguments)
            guard openssl.exited, openssl.exitCode == 0 else { throw Failure.setUp("openssl \(arguments[0]): \(openssl.stderr)") }
        }
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
