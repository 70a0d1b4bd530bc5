import Testing
import VODAppSamples

/// How the sample server reads a request target: the routes the test suite and
/// `vodapp-push serve` rely on, and the malformed ones it answers 404.
struct SampleRouteTests {
    private func route(_ path: String, _ query: [String: String] = [:]) -> SampleRoute {
        SampleRoute(path: path, query: query)
    }

    @Test func bodyRoutesTakeTheirSizeWithOrWithoutAnExtension() {
        #expect(route("/bytes/1024") == .bytes(1024))
        #expect(route("/bytes/1024.mp4") == .bytes(1024))
        #expect(route("/bytes/0.webm") == .bytes(0))
        #expect(route("/chunked/25165824.mp4") == .chunked(25_165_824))
        #expect(route("/close/123456.webm") == .closeDelimited(123_456))
        #expect(route("/gzip/5000.mp4") == .gzip(5000))
        #expect(route("/stall-body/1000") == .stallBody(1000))
        #expect(route("/short/50000/1000.mp4") == .short(declared: 50_000, sent: 1000))
        #expect(route("/long/1000/50000.mp4") == .long(declared: 1000, sent: 50_000))
    }

    @Test func theQueryDoesNotChangeTheRouteOfABody() {
        #expect(route("/bytes/1024.mp4", ["rate": "100", "ranges": "ignore"]) == .bytes(1024))
    }

    @Test func clipsAreServedByNameAndOnlyTheClipsThereAre() {
        #expect(route("/media/tulips.mp4") == .media("tulips.mp4"))
        #expect(route("/media/unicorns.mp4") == .media("unicorns.mp4"))
        #expect(route("/media/sunset.mp4") == .media("sunset.mp4"))
        #expect(route("/media/nothing.mp4") == .notFound)
        #expect(route("/media/tulips") == .notFound)
        #expect(route("/media") == .notFound)
    }

    @Test func statusRedirectsAndStallsAreRoutesOfTheirOwn() {
        #expect(route("/status/404") == .status(404))
        #expect(route("/status/100") == .status(100))
        #expect(route("/status/599") == .status(599))
        #expect(route("/redirect", ["to": "file:///etc/passwd"]) == .redirect(to: "file:///etc/passwd"))
        #expect(route("/loop") == .loop)
        #expect(route("/stall-headers") == .stallHeaders)
        #expect(route("/payload.json") == .payload(token: nil))
        #expect(route("/payload.json", ["token": "t0ken"]) == .payload(token: "t0ken"))
    }

    /// A short body must be shorter than its Content-Length and a long one longer; gzip bodies are
    /// at most 16 MiB; a status is a real one; a redirect says where to.
    @Test(arguments: [
        "/", "", "/bytes", "/bytes/", "/bytes/x", "/bytes/-1", "/bytes/1/2", "/bytes/99999999999999999999",
        "/chunked/x.mp4", "/close", "/short/1000/1000", "/short/1000/2000", "/short/1000", "/long/1000/1000",
        "/long/2000/1000", "/gzip/16777217", "/status/99", "/status/600", "/status/abc", "/redirect",
        "/loop/again", "/stall-headers/1", "/stall-body", "/payload.json/x", "/nothing", "/BYTES/10",
    ])
    func malformedTargetsAreNotFound(_ path: String) {
        #expect(route(path) == .notFound)
    }

    @Test func theGzipLimitIsSixteenMebibytesExactly() {
        #expect(route("/gzip/16777216") == .gzip(16 << 20))
    }
}
