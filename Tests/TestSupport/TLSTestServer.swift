import UnitTestSupport
import Foundation

/// A real https server with a freshly made self-signed certificate, for the fault matrix's TLS
/// rows: Python's `ssl` module in front of a tiny HTTP handler, in a child process. Its request
/// lines go to stdout, so a test can tell what reached it.
///
/// | path | answer |
/// | --- | --- |
/// | `/bytes/N[.ext]` | N bytes of `TLSTestServer.body(count:)`, with Content-Length |
/// | `/redirect?to=URL` | 302 to URL |
/// | `/manifest.mpd` | `manifest`, as `application/dash+xml`, when given |
public final class TLSTestServer: Sendable {
    public let port: Int
    /// The PEM certificate the server presents; `--cacert` takes it.
    public let certificatePath: String
    private let process: RunningProcess
    private let scratch: ScratchDirectory

    public var baseURL: String { "https://localhost:\(port)" }

    /// The paths requested so far, in order.
    public var requests: [String] {
        process.stdoutLines.dropFirst().compactMap { $0.hasPrefix("GET ") ? String($0.dropFirst(4)) : nil }
    }

    /// The bytes of `/bytes/N`.
    public static func body(count: Int) -> [UInt8] {
        (0..<count).map { UInt8($0 % 251) }
    }

    public enum Failure: Error {
        case certificate(String)
    }

    /// - Parameter manifest: a DASH manifest to serve at `/manifest.mpd`.
    public init(manifest: String? = nil) async throws {
        scratch = try ScratchDirectory("vodapp-tls")
        certificatePath = scratch.child("cert.pem")
        let key = scratch.child("key.pem")
        let openssl = try await runTool("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificatePath, "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ])
        guard openssl.exited, openssl.exitCode == 0 else { throw Failure.certificate("openssl req exited \(openssl.exitCode): \(openssl.stderr)") }
        let script = scratch.child("tls-server.py")
        try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
        let manifestPath = scratch.child("manifest.mpd")
        try (manifest ?? "").write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let server = try await RunningProcess("/usr/bin/python3", [script, certificatePath, key, manifestPath],
                                              environment: ProcessInfo.processInfo.environment)
        try await server.wait(for: "the TLS server's port", timeout: .seconds(10)) { !server.stdoutLines.isEmpty }
        process = server
        port = Int(server.stdoutLines[0]) ?? 0
    }

    /// SIGTERM, which the server gets at its default (swift-subprocess resets every signal in
    /// the child), however this process treats it.
    public func stop() {
        process.signal(SIGTERM)
    }

    private static let script = #"""
    import http.server, ssl, sys, urllib.parse

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            print("GET " + self.path, flush=True)
            url = urllib.parse.urlparse(self.path)
            query = urllib.parse.parse_qs(url.query)
            if url.path == "/redirect" and "to" in query:
                self.send_response(302)
                self.send_header("Location", query["to"][0])
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif url.path == "/manifest.mpd":
                body = open(sys.argv[3], "rb").read()
                self.send_response(200)
                self.send_header("Content-Type", "application/dash+xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif url.path.startswith("/bytes/") and url.path[7:].split(".")[0].isdigit():
                count = int(url.path[7:].split(".")[0])
                body = bytes(i % 251 for i in range(count))
                self.send_response(200)
                self.send_header("Content-Length", str(count))
                self.end_headers()
                self.wfile.write(body)
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#
}
