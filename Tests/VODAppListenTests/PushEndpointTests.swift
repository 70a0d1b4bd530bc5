import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Testing
import UnitTestSupport
import VODAppBase
import VODAppDelivery
import VODAppHTTPGuards
@testable import VODAppListen
import VODAppMediaDirectory
import VODAppPayload

/// `POST /push` and `GET /health` as a webhook sender sees them: the very router `vodapp listen`
/// serves (`PushEndpoint.router`, as `Listener` builds it), driven through HummingbirdTesting's
/// router client, in front of a running `DeliveryQueue` whose deliveries the test holds or lets go.
/// What only a real socket shows (connection limits, slow peers, a declared length the body does
/// not match) stays in ListenerLimitsTests.
@Suite struct PushEndpointTests {
    static let secret = "s3cret"
    /// What `vodapp listen` tells a sender to wait after a 429: its budget, 30 s by default.
    static let retryAfter = 30
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    static let push = PayloadBuilder.json([(key: "tulips", title: "Tulips", url: "http://127.0.0.1:1/tulips.mp4")])

    /// Runs `body` with a client of the listener's router in front of a running queue, and stops
    /// the queue afterwards (letting every held delivery go first).
    private func withEndpoint(
        secret: String? = nil, clock: TestClock = TestClock(), capacity: Int = DeliveryQueue.defaultCapacity, concurrency: Int = DeliveryQueue.defaultConcurrency,
        maximumBufferedBytes: Int = HTTPLimits.defaultMaximumBufferedBytes, deliveries: HeldDeliveries = HeldDeliveries(),
        deliver: DeliveryQueue.Deliver? = nil,
        _ body: @Sendable (any TestClientProtocol, DeliveryQueue) async throws -> Void
    ) async throws {
        let queue = DeliveryQueue(capacity: capacity, concurrency: concurrency, logger: Self.logger,
                                  deliver: deliver ?? { payload, ticket in await deliveries.deliver(payload, ticket) })
        let router = PushEndpoint.router(queue: queue, signature: secret.map { PushAuthenticator(secret: $0, now: { clock.now }) },
                                         retryAfter: Self.retryAfter, maximumBufferedBytes: maximumBufferedBytes,
                                         warnings: WarningLimiter(attention: .unheard))
        let app = Application(router: router, logger: Self.logger)
        try await deliveries.running(queue) {
            try await app.test(.router) { client in try await body(client, queue) }
        }
    }

    /// A clock the test sets, in Unix seconds.
    final class TestClock: Sendable {
        private let seconds = NIOLockedValueBox<Int64>(1_732_500_000)
        var now: Int64 {
            get { seconds.withLockedValue { $0 } }
            set { seconds.withLockedValue { $0 = newValue } }
        }
    }

    /// `body` with `PushSignature`'s headers, signed at `time`.
    private static func signed(_ body: Data, at time: Int64, secret: String = PushEndpointTests.secret) -> HTTPFields {
        var headers = HTTPFields()
        headers[HTTPField.Name(PushSignature.timestampHeader)!] = "\(time)"
        headers[HTTPField.Name(PushSignature.signatureHeader)!] = PushSignature(secret: secret).sign(body, at: time)
        return headers
    }

    private func post(_ client: any TestClientProtocol, _ body: Data, uri: String = "/push", signature: String? = nil,
                      timestamp: Int64 = TestClock().now, headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        headers[.contentType] = "application/json"
        if let signature {
            headers[HTTPField.Name(PushSignature.signatureHeader)!] = signature
            headers[HTTPField.Name(PushSignature.timestampHeader)!] = "\(timestamp)"
        }
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    /// The body as text, which every answer ends with a newline.
    private static func text(_ response: TestResponse) -> String {
        String(decoding: response.body.readableBytesView, as: UTF8.self)
    }

    /// The body's JSON object.
    private static func json(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:]
    }

    private static let deliveryHeader = HTTPField.Name("X-VODApp-Delivery")!

    @Test func aPushIsAcceptedWith202AndTheIdOfTheDeliveryItBecomes() async throws {
        let deliveries = HeldDeliveries()
        try await withEndpoint(deliveries: deliveries) { client, _ in
            let response = try await post(client, Self.push)
            #expect(response.status == .accepted)
            #expect(response.headers[.contentType] == "application/json")
            let id = try #require(Self.json(response)["delivery"] as? String)
            #expect(Self.text(response) == "{\"delivery\":\"\(id)\"}\n")
            #expect(id.count == 16 && id.allSatisfy(\.isHexDigit), "\(id)")
            #expect(response.headers[Self.deliveryHeader] == id)

            try await deliveries.waitForStarts(1)
            let started = try #require(deliveries.started.first)
            #expect(started.ticket.id == id)
            #expect(started.keys == ["tulips"])
            #expect(started.ticket.origin.kind == "http")
        }
    }

    @Test func everyPushGetsADeliveryOfItsOwn() async throws {
        let deliveries = HeldDeliveries()
        try await withEndpoint(deliveries: deliveries) { client, _ in
            let first = try await post(client, Self.push)
            let second = try await post(client, Self.push)
            let ids = [first, second].compactMap { Self.json($0)["delivery"] as? String }
            #expect(ids.count == 2 && ids[0] != ids[1], "\(ids)")
            try await deliveries.waitForStarts(2)
            #expect(Set(deliveries.started.map(\.ticket.id)) == Set(ids))
        }
    }

    @Test func healthAnswers200WithTheQueuesLoad() async throws {
        try await withEndpoint { client, _ in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(Self.text(response) == "{\"running\":0,\"status\":\"ok\",\"waiting\":0}\n")
        }
    }

    /// Only `POST /push` and `GET /health` exist; another path is a 404 that says where pushes go
    /// (a URL without `/push` was a new user's silent 404), another method
    /// on one of those two is 405 with the method it takes (`Allow`), and neither delivers
    /// anything, whatever it carries.
    @Test(arguments: [
        (HTTPRequest.Method.get, "/push", String?("POST")), (.put, "/push", "POST"), (.delete, "/push", "POST"), (.post, "/health", "GET"),
        (.post, "/", nil), (.post, "/push/more", nil), (.post, "/hooks/vodapp", nil), (.get, "/", nil),
    ])
    func otherMethodsAre405AndOtherPaths404(method: HTTPRequest.Method, path: String, allowed: String?) async throws {
        let deliveries = HeldDeliveries()
        try await withEndpoint(deliveries: deliveries) { client, queue in
            let response = try await client.execute(uri: path, method: method, body: ByteBuffer(bytes: Self.push))
            if let allowed {
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == allowed)
            } else {
                #expect(response.status == .notFound)
                let error = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                #expect(error?["error"] == "\(path) is not here: pushes go to POST /push, and GET /health says how the listener is")
            }
            #expect(queue.load.waiting == 0 && queue.load.running == 0)
        }
        #expect(deliveries.started.isEmpty)
    }

    @Test func withASecretOnlyASignatureOfThisTimeAndTheVeryBodyIsAccepted() async throws {
        let deliveries = HeldDeliveries()
        let clock = TestClock()
        let time = clock.now
        let signature = PushSignature(secret: Self.secret)
        try await withEndpoint(secret: Self.secret, clock: clock, deliveries: deliveries) { client, _ in
            let unsigned = try await post(client, Self.push)
            #expect(unsigned.status == .unauthorized)
            #expect(unsigned.headers[.contentType] == "application/json")
            #expect(Self.json(unsigned)["error"] as? String == PushSignature.Rejection.missing.description)

            // The body-only form of webhook senders is replayable: not enough here, and the
            // answer says where it belongs.
            var hub = HTTPFields()
            hub[HTTPField.Name(WebhookSignature.headerName)!] = WebhookSignature(secret: Self.secret).sign(Self.push)
            let hubOnly = try await post(client, Self.push, headers: hub)
            #expect(hubOnly.status == .unauthorized)
            #expect((Self.json(hubOnly)["error"] as? String)?.contains("X-Hub-Signature-256 alone (body only, replayable) is for the adnanh/webhook route") == true)

            let refusals = [
                PushSignature(secret: "guess").sign(Self.push, at: time),
                // A signature of other bytes, or of another time, is as wrong as a wrong secret.
                signature.sign(Self.push + Data(" ".utf8), at: time),
                signature.sign(Self.push, at: time - 1),
            ]
            for wrong in refusals {
                let response = try await post(client, Self.push, signature: wrong, timestamp: time)
                #expect(response.status == .unauthorized, "\(wrong)")
                #expect(Self.text(response) == "{\"error\":\"X-VODApp-Signature does not match the timestamp and the body\"}\n", "\(wrong)")
            }
            // Neither a bare code, another scheme, nor a code that is not hex: the scheme is named.
            let malformed = [
                String(signature.sign(Self.push, at: time).dropFirst("v1=".count)),
                "sha256=" + signature.sign(Self.push, at: time).dropFirst("v1=".count),
                "v1=" + String(repeating: "zz", count: 32),
                "v1=",
                "",
            ]
            for wrong in malformed {
                let response = try await post(client, Self.push, signature: wrong, timestamp: time)
                #expect(response.status == .unauthorized, "\(wrong)")
                #expect(Self.text(response).hasPrefix("{\"error\":\"X-VODApp-Signature is not v1= followed by the 64 hex digits"), "\(wrong)")
            }
            #expect(deliveries.started.isEmpty, "a refused push was delivered")

            let accepted = try await post(client, Self.push, signature: signature.sign(Self.push, at: time), timestamp: time)
            #expect(accepted.status == .accepted)
            // The header's hex is read in either case, and a new time makes a new signature.
            let upper = "v1=" + signature.sign(Self.push, at: time + 1).dropFirst(3).uppercased()
            #expect(try await post(client, Self.push, signature: upper, timestamp: time + 1).status == .accepted)
            try await deliveries.waitForStarts(2)
            #expect(deliveries.started.map(\.keys) == [["tulips"], ["tulips"]])
        }
    }

    /// A captured request, sent again: refused with 409 while its time is in the window, with
    /// 401 after; the same bytes signed anew go through.
    @Test func aSignedPushIsTakenOnceAndNotAfterFiveMinutes() async throws {
        let deliveries = HeldDeliveries()
        let clock = TestClock()
        let time = clock.now
        try await withEndpoint(secret: Self.secret, clock: clock, deliveries: deliveries) { client, _ in
            let captured = Self.signed(Self.push, at: time)
            #expect(try await post(client, Self.push, headers: captured).status == .accepted)
            for _ in 0..<2 {
                let again = try await post(client, Self.push, headers: captured)
                #expect(again.status == .conflict)
                #expect((Self.json(again)["error"] as? String)?.contains("already accepted") == true)
            }
            clock.now = time + 299
            #expect(try await post(client, Self.push, headers: captured).status == .conflict)
            clock.now = time + 301
            let old = try await post(client, Self.push, headers: captured)
            #expect(old.status == .unauthorized)
            #expect(Self.json(old)["error"] as? String == PushSignature.Rejection.tooOld(seconds: 301).description)
            // A clock far ahead of the sender's is as wrong as one far behind.
            #expect(try await post(client, Self.push, headers: Self.signed(Self.push, at: time + 301 + 301)).status == .unauthorized)
            #expect(try await post(client, Self.push, headers: Self.signed(Self.push, at: time + 301)).status == .accepted)
            try await deliveries.waitForStarts(2)
        }
        #expect(deliveries.started.count == 2)
    }

    /// A push whose signature is good and that is not taken (an invalid payload, a full queue)
    /// may be sent again as it was.
    @Test func aSignedPushNotTakenMayBeSentAgain() async throws {
        let deliveries = HeldDeliveries(open: false)
        let clock = TestClock()
        try await withEndpoint(secret: Self.secret, clock: clock, capacity: 1, concurrency: 1, deliveries: deliveries) { client, _ in
            let first = PayloadBuilder.json([(key: "first", title: "First", url: "http://127.0.0.1:1/a.mp4")])
            let second = PayloadBuilder.json([(key: "second", title: "Second", url: "http://127.0.0.1:1/b.mp4")])
            let third = PayloadBuilder.json([(key: "third", title: "Third", url: "http://127.0.0.1:1/c.mp4")])
            #expect(try await post(client, first, headers: Self.signed(first, at: clock.now)).status == .accepted)
            try await deliveries.waitForStarts(1)
            #expect(try await post(client, second, headers: Self.signed(second, at: clock.now)).status == .accepted)
            let full = Self.signed(third, at: clock.now)
            #expect(try await post(client, third, headers: full).status == .tooManyRequests)
            deliveries.open()
            try await deliveries.waitForStarts(2)
            #expect(try await post(client, third, headers: full).status == .accepted)
        }
    }

    /// The declared length alone refuses a body over 1 MiB: before its signature is asked for,
    /// and before a byte of it is read.
    @Test func aBodyDeclaredOverOneMebibyteIs413FromItsHeadersAlone() async throws {
        let deliveries = HeldDeliveries()
        try await withEndpoint(secret: Self.secret, deliveries: deliveries) { client, _ in
            var headers = HTTPFields()
            headers[.contentLength] = "\(2 << 20)"
            // No body at all follows the headers: the answer cannot have come from reading one.
            let response = try await client.execute(uri: "/push", method: .post, headers: headers)
            #expect(response.status == .contentTooLarge)
            #expect(response.headers[.contentType] == "application/json")
            #expect(Self.text(response) == "{\"error\":\"the body is 2097152 bytes; a payload is at most 1048576\"}\n")
        }
        #expect(deliveries.started.isEmpty)
    }

    /// 1 MiB is the most a payload may be: exactly that is a push, one byte more is not.
    @Test func exactlyOneMebibyteIsAcceptedAndOneByteMoreIs413() async throws {
        let deliveries = HeldDeliveries()
        try await withEndpoint(deliveries: deliveries) { client, _ in
            // JSON allows the whitespace that pads the payload to the limit.
            var limit = Self.push
            limit.append(Data(repeating: UInt8(ascii: " "), count: (1 << 20) - limit.count))
            #expect(try await post(client, limit).status == .accepted)
            let over = try await post(client, limit + Data(" ".utf8))
            #expect(over.status == .contentTooLarge)
            #expect(Self.text(over) == "{\"error\":\"the body is 1048577 bytes; a payload is at most 1048576\"}\n")
            try await deliveries.waitForStarts(1)
        }
        #expect(deliveries.started.count == 1)
    }

    /// A body that is not a push is refused with the reason `vodapp handle` would print for the
    /// same file; there is no 422: every invalid payload is 400.
    @Test(arguments: [
        (#"{"aps": "#, "invalid payload: payload is not valid JSON: the text ends where a value should be at line 1, column 9"),
        ("[1]", "invalid payload: payload must be a JSON object, found an array"),
        (#"{"playlist": {}}"#, #"invalid payload: payload has no "aps" object, so it is not a push"#),
        (#"{"aps": {"alert": "hi"}, "playlist": {}}"#,
         "invalid payload: aps.content-available is missing, not 1: such a push would not wake the app in the background"),
        (#"{"aps": {"content-available": 1}}"#, #"invalid payload: payload has no "playlist" object"#),
        (#"{"aps": {"content-available": 1}, "playlist": {"k": {"title": "t", "url": "ftp://h/x"}}}"#,
         #"invalid payload: all 1 playlist item(s) are invalid (first: url scheme "ftp" is not http or https)"#),
        ("", "invalid payload: payload is not valid JSON: the payload is empty"),
    ])
    func whatIsNotAPushIs400WithTheReason(body: String, reason: String) async throws {
        let deliveries = HeldDeliveries()
        try await withEndpoint(deliveries: deliveries) { client, _ in
            let response = try await post(client, Data(body.utf8))
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/json")
            #expect(Self.json(response)["error"] as? String == reason)
            #expect(Self.text(response).hasSuffix("}\n"))
        }
        #expect(deliveries.started.isEmpty)
    }

    @Test func bytesThatAreNotUTF8Are400() async throws {
        try await withEndpoint { client, _ in
            let response = try await post(client, Data([0x7B, 0xFF, 0x7D]))
            #expect(response.status == .badRequest)
            #expect(Self.json(response)["error"] as? String == "invalid payload: payload is not UTF-8 text")
        }
    }

    /// With every slot busy and the queue's room taken, a push is refused with 429 and told to
    /// come back after the budget; once the queue drains, pushes are accepted again.
    @Test func aFullQueueAnswers429WithRetryAfter() async throws {
        let deliveries = HeldDeliveries(open: false)
        try await withEndpoint(capacity: 1, concurrency: 1, deliveries: deliveries) { client, queue in
            #expect(try await post(client, Self.push).status == .accepted)
            try await deliveries.waitForStarts(1)
            #expect(try await post(client, Self.push).status == .accepted)

            let refused = try await post(client, Self.push)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "\(Self.retryAfter)")
            #expect(Self.text(refused) == "{\"error\":\"the delivery queue is full (1 waiting)\"}\n")
            #expect(refused.headers[Self.deliveryHeader] == nil)

            let health = try await client.execute(uri: "/health", method: .get)
            #expect(Self.text(health) == "{\"running\":1,\"status\":\"ok\",\"waiting\":1}\n")
            #expect(queue.load.waiting == 1 && queue.load.running == 1)

            deliveries.open()
            try await deliveries.waitForFinishes(2)
            try await waitUntil("the queue to empty") { queue.load.waiting == 0 && queue.load.running == 0 }
            #expect(try await post(client, Self.push).status == .accepted)
        }
        #expect(deliveries.started.count == 3)
    }

    /// While the listener stops, a push is refused with 503 and no Retry-After: there is no later.
    @Test func aStoppingListenerAnswers503() async throws {
        let deliveries = HeldDeliveries()
        try await withEndpoint(deliveries: deliveries) { client, queue in
            queue.refuseNewPushes()
            let response = try await post(client, Self.push)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == nil)
            #expect(Self.text(response) == "{\"error\":\"the listener is shutting down\"}\n")
        }
        #expect(deliveries.started.isEmpty)
    }

    /// A body over 16 KiB must fit in what the listener buffers at once, reserved from its declared
    /// length before it is read; when it cannot, the answer is 503 with Retry-After: 1. A push of
    /// a few KiB reserves nothing and is accepted all the same.
    @Test func aLargeBodyThatCannotBeBufferedIs503AndASmallOneStillGetsIn() async throws {
        let deliveries = HeldDeliveries()
        try await withEndpoint(maximumBufferedBytes: 20_000, deliveries: deliveries) { client, _ in
            var large = Self.push
            large.append(Data(repeating: UInt8(ascii: " "), count: 30_000 - large.count))
            let busy = try await post(client, large)
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.headers[.retryAfter] == "1")
            #expect(Self.text(busy) == "{\"error\":\"too many push bodies are being received at once; try again shortly\"}\n")

            var fitting = Self.push
            fitting.append(Data(repeating: UInt8(ascii: " "), count: 19_000 - fitting.count))
            #expect(try await post(client, fitting).status == .accepted)
            #expect(try await post(client, Self.push).status == .accepted)
            try await deliveries.waitForStarts(2)
        }
        #expect(deliveries.started.count == 2)
    }

    /// `?wait=1` (or `true`, `yes`, in any case) answers when the delivery has run, with its
    /// report (an unsigned push's, `redacted`); anything else answers at once.
    @Test(arguments: [("wait=1", true), ("wait=TRUE", true), ("wait=yes", true), ("wait=0", false), ("wait=no", false),
                      ("other=1", false)])
    func waitingIsAskedForByTheQuery(query: String, waits: Bool) async throws {
        let deliveries = HeldDeliveries()
        try await withEndpoint(deliveries: deliveries) { client, _ in
            let response = try await post(client, Self.push, uri: "/push?" + query)
            #expect(response.status == (waits ? .ok : .accepted))
            let id = try #require(response.headers[Self.deliveryHeader])
            if waits {
                let payload = try Payload(data: Self.push)
                #expect(Self.text(response) == HeldDeliveries.report(for: payload).redacted.json + "\n")
                #expect(deliveries.finished == 1)
            } else {
                #expect(Self.text(response) == "{\"delivery\":\"\(id)\"}\n")
            }
        }
    }

    /// A waited-for push runs the real pipeline: the answer to a signed push is the report
    /// `vodapp handle --json` would print, and the file is in DIR when it comes. An unsigned push
    /// (no secret set) gets it without what only DIR's owner should learn: DIR's path, the files'
    /// paths, the size of a file already there (seventh attacker trial, F7: before, anyone who
    /// could reach the port learnt them from a push of keys they guessed).
    @Test(arguments: [true, false])
    func waitingForARealDeliveryAnswers200WithItsReport(signed: Bool) async throws {
        let scratch = try ScratchDirectory()
        let options = DeliveryOptions(directory: scratch.path, notify: false)
        try await withSampleServer { server in
            let body = PayloadBuilder.json([
                (key: "tulips", title: "Tulips", url: server.url("/bytes/4000.mp4")),
                (key: "gone", title: "Gone", url: server.url("/status/404")),
            ])
            try await withEndpoint(secret: signed ? Self.secret : nil, deliver: { payload, ticket throws(MediaDirectoryError) in
                try await Delivery(options: options, logger: Self.logger, attention: .unheard).run(payload, from: ticket.origin, started: ticket.arrived)
            }) { client, _ in
                var time = TestClock().now
                let response = try await post(client, body, uri: "/push?wait=1", headers: signed ? Self.signed(body, at: time) : [:])
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[Self.deliveryHeader]?.count == 16)
                let report = Self.json(response)
                #expect(report["result"] as? String == "newData")
                #expect(report["directory"] as? String == (signed ? scratch.path : nil))
                let items = report["items"] as? [[String: Any]] ?? []
                #expect(items.map { $0["key"] as? String } == ["tulips", "gone"])
                #expect(items.map { $0["status"] as? String } == ["downloaded", "failed"])
                #expect(items.first?["path"] as? String == (signed ? scratch.path + "/Tulips [tulips].mp4" : nil))
                // What the sender's own server sent: known to the sender anyway.
                #expect(items.first?["bytes"] as? Int == 4000)
                #expect(items.last?["error"] as? String == "the server answered HTTP 404")
                #expect(holdsSampleBytes(scratch.path + "/Tulips [tulips].mp4", count: 4000))

                // Pushed again: the file already there is the owner's to size.
                time += 1
                let again = try await post(client, body, uri: "/push?wait=1", headers: signed ? Self.signed(body, at: time) : [:])
                let present = (Self.json(again)["items"] as? [[String: Any]] ?? []).first
                #expect(present?["status"] as? String == "alreadyPresent")
                #expect(present?["bytes"] as? Int == (signed ? 4000 : nil))
                #expect(present?["path"] as? String == (signed ? scratch.path + "/Tulips [tulips].mp4" : nil))
                #expect(!Self.text(again).contains(scratch.path) || signed, "\(Self.text(again))")
            }
        }
    }

    /// A delivery that cannot run at all (DIR unusable) answers a waiting sender 500, under its
    /// delivery id: with the reason when the push is signed, and without it (it names DIR)
    /// when not.
    @Test(arguments: [true, false])
    func aDeliveryThatCannotRunAnswersAWaitingSender500(signed: Bool) async throws {
        let scratch = try ScratchDirectory()
        let file = scratch.child("a-file")
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: file))
        let options = DeliveryOptions(directory: file + "/media", notify: false)
        try await withEndpoint(secret: signed ? Self.secret : nil, deliver: { payload, ticket throws(MediaDirectoryError) in
            try await Delivery(options: options, logger: Self.logger, attention: .unheard).run(payload, from: ticket.origin, started: ticket.arrived)
        }) { client, _ in
            let response = try await post(client, Self.push, uri: "/push?wait=1",
                                          headers: signed ? Self.signed(Self.push, at: TestClock().now) : [:])
            #expect(response.status == .internalServerError)
            #expect(response.headers[Self.deliveryHeader]?.count == 16)
            let reason = try #require(Self.json(response)["error"] as? String)
            if signed {
                #expect(reason.hasPrefix("cannot use \(file)/media for media: "), "\(reason)")
            } else {
                #expect(reason == "the delivery failed; the listener's log says why")
            }
        }
    }
}
