import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import VODAppBase
import VODAppDelivery
import VODAppHTTPGuards
import VODAppPayload

/// The HTTP side of `vodapp listen`: `POST /push` and `GET /health`.
///
/// Every answer has a JSON body; errors are `{"error": "…"}` with the one-line reason the
/// one-shot handler would print, so a webhook sender's delivery log says what was wrong.
public enum PushEndpoint {
    /// The same cap as a payload file: a larger body is refused before it is read whole.
    public static let maximumBodySize = Payload.maximumSize
    static let deliveryHeader = HTTPField.Name("X-VODApp-Delivery")!
    static let timestampHeader = HTTPField.Name(PushSignature.timestampHeader)!
    static let signatureHeader = HTTPField.Name(PushSignature.signatureHeader)!
    static let hubSignatureHeader = HTTPField.Name(WebhookSignature.headerName)!

    /// The routes, built by a function so tests and the listener use the very same ones.
    /// - Parameters:
    ///   - signature: when set, every push must carry a valid `X-VODApp-Timestamp` and
    ///     `X-VODApp-Signature` (the body-only `X-Hub-Signature-256` is not enough: it can be
    ///     replayed), and is taken once.
    ///   - retryAfter: what a 429 tells the sender to wait, in seconds.
    ///   - maximumBufferedBytes: the most body bytes held at once over all requests: over it the
    ///     bodies arriving for over 2 s are cut to make room, or the request is answered 503.
    ///   - warnings: where refusals are told, a few of each kind at a time.
    package static func router(queue: DeliveryQueue, signature: PushAuthenticator?, retryAfter: Int,
                               maximumBufferedBytes: Int = HTTPLimits.defaultMaximumBufferedBytes,
                               warnings: WarningLimiter) -> Router<PushRequestContext> {
        let router = Router(context: PushRequestContext.self)
        let bodies = BodyAllowance(capacity: maximumBufferedBytes, warnings: warnings)
        router.get("health") { _, _ in
            let load = queue.load
            return json(.ok, Health(status: "ok", waiting: load.waiting, running: load.running))
        }
        // The other methods on a path that exists: 405 and what it takes, not "not found".
        for (path, allowed) in [("push", HTTPRequest.Method.post), ("health", .get)] {
            for method in [HTTPRequest.Method.get, .head, .post, .put, .delete, .patch] where method != allowed {
                router.on(RouterPath(path), method: method) { _, _ in
                    var response = json(.methodNotAllowed, Failure(error: "/\(path) takes \(allowed.rawValue) only"))
                    response.headers[.allow] = allowed.rawValue
                    return response
                }
            }
        }
        router.post("push") { request, context in
            let peer = context.remoteAddress.map(\.shown) ?? "unknown peer"
            // These answers come from the headers alone, before a byte of the body is read: a peer
            // cannot make the listener hold more than it allows, whatever it declares or sends.
            let declared = request.headers[.contentLength].flatMap(Int.init).map { max($0, 0) }
            if let declared, declared > maximumBodySize {
                return refuse(.contentTooLarge, "the body is \(declared) bytes; a payload is at most \(maximumBodySize)", peer, warnings)
            }
            if let signature {
                if request.headers[signatureHeader] == nil || request.headers[timestampHeader] == nil {
                    // A webhook sender's body-only signature can be replayed for ever: it is the
                    // webhook host's (Examples/webhook), not the listener's.
                    let hubOnly = request.headers[hubSignatureHeader] != nil
                        ? "; \(WebhookSignature.headerName) alone (body only, replayable) is for the adnanh/webhook route" : ""
                    return refuse(.unauthorized, PushSignature.Rejection.missing.description + hubOnly, peer, warnings)
                }
                do throws(PushAuthenticator.Refusal) {
                    try signature.checkTime(request.headers[timestampHeader])
                } catch {
                    return refuse(.unauthorized, error.description, peer, warnings)
                }
            }
            // A push of a few KiB (APNs allows 4) reserves nothing: every connection may hold one,
            // which the connection cap bounds (1,024 × 16 KiB), so peers holding the allowance
            // with large slow bodies, however often they reconnect, cannot keep a real push out.
            var reservation: BodyAllowance.Reservation?
            if declared.map({ $0 > HTTPLimits.smallBody }) ?? true {
                reservation = bodies.reserve(declared ?? maximumBodySize, for: context.channel)
                guard reservation != nil else {
                    var response = refuse(.serviceUnavailable, "too many push bodies are being received at once; try again shortly", peer, warnings)
                    response.headers[.retryAfter] = "1"
                    return response
                }
            }
            let payload: Payload
            // The signature taken for this push, forgotten again when the push is not: the
            // sender may then send the very same request again.
            var admitted: [UInt8]?
            do {
                // The body is held from here until it is parsed, not while a ?wait=1 delivery runs.
                defer { if let reservation { bodies.release(reservation) } }
                let body: ByteBuffer
                do {
                    body = try await request.body.collect(upTo: maximumBodySize)
                } catch is NIOTooManyBytesError {
                    return refuse(.contentTooLarge, "the body is over \(maximumBodySize) bytes, the most a payload may be", peer, warnings)
                }
                if let signature {
                    do throws(PushAuthenticator.Refusal) {
                        admitted = try signature.admit(timestamp: request.headers[timestampHeader],
                                                       signature: request.headers[signatureHeader], body: body.readableBytesView)
                    } catch {
                        switch error {
                        case .unauthorized: return refuse(.unauthorized, error.description, peer, warnings)
                        case .replayed: return refuse(.conflict, error.description, peer, warnings)
                        case .memoryFull, .unrecorded: return refuse(.serviceUnavailable, error.description, peer, warnings)
                        }
                    }
                }
                do {
                    payload = try Payload(data: Data(buffer: body))
                } catch {
                    if let admitted { signature?.forget(admitted) }
                    return refuse(.badRequest, "invalid payload: \(error)", peer, warnings)
                }
            }
            let ticket: DeliveryTicket
            do {
                ticket = try queue.submit(payload, from: .http(peer: peer), authentication: signature == nil ? .unauthenticated : .signed)
            } catch let refusal as DeliveryQueue.Refusal {
                if let admitted { signature?.forget(admitted) }
                guard case .full = refusal else {
                    return refuse(.serviceUnavailable, refusal.description, peer, warnings)
                }
                var response = refuse(.tooManyRequests, refusal.description, peer, warnings)
                response.headers[.retryAfter] = String(retryAfter)
                return response
            }
            guard wantsToWait(request.uri) else {
                var response = json(.accepted, Accepted(delivery: ticket.id))
                response.headers[deliveryHeader] = ticket.id
                return response
            }
            var response: Response
            // The report is DIR owner's: an unsigned push gets it without DIR's paths, sizes of
            // files already there, or what retention removed (`DeliveryReport.redacted`).
            switch await ticket.outcome() {
            case .success(let report):
                let shown = signature == nil ? report.redacted : report
                response = Response(status: .ok, headers: [.contentType: "application/json"],
                                    body: .init(byteBuffer: ByteBuffer(string: shown.json + "\n")))
            case .failure(let error):
                let reason = signature == nil ? "the delivery failed; the listener's log says why" : error.description
                response = json(.internalServerError, Failure(error: reason))
            }
            response.headers[deliveryHeader] = ticket.id
            return response
        }
        // Added last, so it wraps only the answer to a path that is not one of those above.
        router.add(middleware: PathNotFound())
        return router
    }

    private struct Health: Encodable {
        let status: String
        let waiting: Int
        let running: Int
    }

    private struct Accepted: Encodable {
        let delivery: String
    }

    struct Failure: Encodable {
        let error: String
    }

    private static func wantsToWait(_ uri: URI) -> Bool {
        guard let wait = uri.queryParameters.get("wait") else { return false }
        return ["1", "true", "yes"].contains(wait.lowercased())
    }

    private static func refuse(_ status: HTTPResponse.Status, _ reason: String, _ peer: String, _ warnings: WarningLimiter) -> Response {
        warnings.warn("HTTP pushes refused with \(status.code)", "refused a push: \(reason)",
                      metadata: ["from": "http \(peer)", "status": "\(status.code)"])
        return json(status, Failure(error: reason))
    }

    static func json(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
        let data = CompactJSON.data(value) ?? Data(#"{"error":"unencodable answer"}"#.utf8)
        var buffer = ByteBuffer(bytes: data)
        buffer.writeString("\n")
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: buffer))
    }
}
