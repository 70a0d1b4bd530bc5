import UnitTestSupport
import Foundation

/// The real nginx (`/usr/sbin/nginx`) serving a directory on a free loopback port, for one test:
/// real HTTP semantics (ranges, If-Range, ETags, keep-alive) from a server vodapp did not write.
///
/// Everything it writes (config, pid, logs, temp directories) is in a scratch directory of its
/// own, and `root` is an empty directory in it that the test fills. Each request is logged as one
/// JSON line, read back by `requests`.
///
/// nginx runs in the foreground as a single process (`daemon off; master_process off;`), so one
/// signal ends all of it: SIGTERM, which it gets at its default, since swift-subprocess resets
/// every signal in the child. It lives for a whole test, and cannot outlive the test process
/// (`WatchedChild`).
public final class NginxServer: Sendable {
    public let port: Int
    /// The document root, empty at the start.
    public let root: String
    public let configPath: String
    private let scratch: ScratchDirectory
    private let accessLogPath: String
    private let errorLogPath: String
    private let child: WatchedChild

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The URL of `path`, relative to the root (a leading `/` is optional).
    public func url(_ path: String) -> String {
        baseURL + (path.hasPrefix("/") ? path : "/" + path)
    }

    public enum Failure: Error, CustomStringConvertible {
        case didNotStart(String)

        public var description: String {
            switch self {
            case .didNotStart(let detail): "nginx did not start: \(detail)"
            }
        }
    }

    /// Starts nginx. `serverDirectives` goes verbatim into the `server { }` block, after the
    /// `listen` and `root` lines: `location` blocks, typically. Requests that no location of the
    /// test's matches are served from `root`.
    public init(serverDirectives: String = "") async throws {
        scratch = try ScratchDirectory("vodapp-nginx")
        root = scratch.child("root")
        configPath = scratch.child("nginx.conf")
        accessLogPath = scratch.child("access.log")
        errorLogPath = scratch.child("error.log")
        for directory in ["root", "temp"] {
            try FileManager.default.createDirectory(atPath: scratch.child(directory), withIntermediateDirectories: true)
        }
        var lastFailure = "no attempt"
        // closedPort() is free when asked, not necessarily when nginx binds: another test may
        // take it in between, so a bind failure is retried on another port.
        for _ in 0..<5 {
            let candidate = try closedPort()
            try Self.config(port: candidate, scratch: scratch, root: root, accessLog: accessLogPath, errorLog: errorLogPath,
                            serverDirectives: serverDirectives).write(toFile: configPath, atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: errorLogPath, contents: nil)
            let launched = try await WatchedChild.launch("/usr/sbin/nginx", ["-c", configPath, "-p", scratch.path + "/", "-e", errorLogPath])
            switch await Self.waitForStart(port: candidate, errorLog: errorLogPath, pidFile: scratch.child("nginx.pid")) {
            case .listening:
                port = candidate
                child = launched
                return
            case .failed(let log):
                launched.end()
                lastFailure = log
                guard log.contains("Address already in use") else { throw Failure.didNotStart(log) }
            }
        }
        throw Failure.didNotStart(lastFailure)
    }

    deinit {
        stop()
    }

    /// Kills nginx and waits (at most 5 s) until it is gone, reaped and all. Idempotent.
    public func stop() {
        child.end()
    }

    /// The requests logged so far, in the order nginx finished them. nginx logs a request after
    /// its response is sent, so a client may see the response a moment before its entry exists:
    /// use `waitForRequests` to wait for one.
    public var requests: [NginxRequest] {
        guard let text = try? String(contentsOfFile: accessLogPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { NginxRequest(logLine: $0) }
    }

    /// The logged requests, once `condition` holds for them.
    @discardableResult
    public func waitForRequests(timeout: Duration = .seconds(5),
                                until condition: ([NginxRequest]) -> Bool) async throws -> [NginxRequest] {
        try await waitUntil("nginx's access log", timeout: timeout, detail: { "; log: \(requests)" }) { condition(requests) }
        return requests
    }

    /// nginx's error log, for a failure message.
    public var errorLog: String {
        (try? String(contentsOfFile: errorLogPath, encoding: .utf8)) ?? ""
    }

    // MARK: Starting and stopping

    private static func config(port: Int, scratch: ScratchDirectory, root: String, accessLog: String, errorLog: String,
                               serverDirectives: String) -> String {
        let temp = scratch.child("temp")
        return """
        daemon off;
        master_process off;
        worker_processes 1;
        pid \(scratch.child("nginx.pid"));
        error_log \(errorLog) info;

        events {
            worker_connections 256;
        }

        http {
            client_body_temp_path \(temp)/body;
            proxy_temp_path \(temp)/proxy;
            fastcgi_temp_path \(temp)/fastcgi;
            uwsgi_temp_path \(temp)/uwsgi;
            scgi_temp_path \(temp)/scgi;

            # The types HLS and DASH need, rather than the system's mime.types.
            types {
                application/vnd.apple.mpegurl m3u8;
                video/mp2t ts;
                video/mp4 mp4;
                video/iso.segment m4s;
                application/dash+xml mpd;
                text/plain txt;
                text/html html;
            }
            default_type application/octet-stream;

            log_format vodapp escape=json '{"method":"$request_method","uri":"$request_uri","status":"$status",'
                                          '"bytes":"$body_bytes_sent","range":"$http_range","ifRange":"$http_if_range",'
                                          '"cookie":"$http_cookie","userAgent":"$http_user_agent",'
                                          '"test":"$http_x_vodapp_test"}';
            access_log \(accessLog) vodapp;

            sendfile on;
            keepalive_timeout 30s;
            server_tokens off;

            server {
                listen 127.0.0.1:\(port);
                server_name localhost;
                root \(root);

        \(serverDirectives)
            }
        }

        """
    }

    private enum Start {
        case listening
        case failed(String)
    }

    /// Polls until the port takes a connection and nginx has written its pid file, or the error
    /// log says nginx gave up. The port alone is not enough: when another test's server took it
    /// between `closedPort()` and nginx's bind, it takes connections while nginx exits with
    /// "Address already in use" (a full suite's HLS test then met a refused connection). nginx
    /// writes its pid file only once its sockets are bound.
    private static func waitForStart(port: Int, errorLog: String, pidFile: String) async -> Start {
        let deadline = ContinuousClock.now + TimeBound.duration(.seconds(10))
        while ContinuousClock.now < deadline {
            let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            if log.contains("[emerg]") || log.contains("[alert]") { return .failed(log) }
            let pid = (try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if !pid.isEmpty, acceptsConnections(port: port) { return .listening }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return .failed("port \(port) still closed after 10 s; error log: \((try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "")")
    }
}

/// One line of `NginxServer`'s access log. Headers the request did not send are nil.
public struct NginxRequest: Sendable, Equatable, CustomStringConvertible {
    public let method: String
    /// The request target as sent: path and query.
    public let uri: String
    public let status: Int
    /// Body bytes sent (`$body_bytes_sent`), headers not counted.
    public let bodyBytes: Int
    public let range: String?
    public let ifRange: String?
    public let cookie: String?
    public let userAgent: String?
    /// The `X-Vodapp-Test` header.
    public let testHeader: String?

    init?(logLine: Substring) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(logLine.utf8)) as? [String: String],
              let method = object["method"], let uri = object["uri"],
              let status = object["status"].flatMap({ Int($0) }), let bytes = object["bytes"].flatMap({ Int($0) }) else {
            return nil
        }
        func header(_ key: String) -> String? { object[key].flatMap { $0.isEmpty ? nil : $0 } }
        self.method = method
        self.uri = uri
        self.status = status
        bodyBytes = bytes
        range = header("range")
        ifRange = header("ifRange")
        cookie = header("cookie")
        userAgent = header("userAgent")
        testHeader = header("test")
    }

    public var description: String {
        "\(method) \(uri) \(status) \(bodyBytes)" + (range.map { " Range: \($0)" } ?? "")
    }
}
