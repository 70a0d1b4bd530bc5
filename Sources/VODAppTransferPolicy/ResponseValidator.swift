import VODAppBase
import VODAppModel

/// What vodapp makes of an answer, as pure functions of what arrived: whether a response may give
/// its body to the request when its headers end, where a redirect may lead, and, when the
/// transfer is over, what its result is, whether it is worth asking again and whether its bytes
/// stay. `TransferContext` gathers what arrived; the engine asks here.
///
/// Ranges are verified, never trusted (RFC 9110 14): spliced at the wrong byte, a video plays
/// garbage.
package enum ResponseValidator {

    // MARK: When the headers end

    /// Why the body of a 2xx response whose headers are `head` must not be taken for `request`,
    /// or nil when it may. Judged before a body byte arrives.
    /// - Parameter roomAvailable: the bytes the delivery's room (`--min-free`) has left, when it
    ///   has one.
    package static func refusal(of head: ResponseHead, to request: TransferRequest, roomAvailable: Int64?) -> TransferAbort? {
        if let invalid = head.invalidLength {
            return .rejected("the server sent an invalid Content-Length (\(UntrustedText.sanitized(invalid, limit: 60, replacingControlsWith: "?")))",
                             final: false)
        }
        if let problem = rangeProblem(head, request) {
            // A server that ignores ranges ignores them the next time too.
            return request.slice != nil && head.status != 206 ? .rejected(problem, final: true) : .badRange(problem)
        }
        // Too large is decided here, before any body byte, and only for a 2xx: the size of an
        // error page or a redirect says nothing about the item's. A 206's length is only the
        // rest, so a resumed response is judged by its Content-Range's total.
        let size = request.resume != nil ? head.declaredTotal(for: request) : (head.encoded ? nil : head.declaredLength)
        if let size, size > sizeLimit(of: request) { return .tooLarge }
        // What this response will write, judged before a byte of it: a body that does not fit
        // is not started. One of unknown length is stopped where it stops fitting.
        if let roomAvailable, !head.encoded, let toWrite = head.declaredLength, toWrite > roomAvailable { return .noRoom }
        return nil
    }

    /// The most body bytes a response to `request` may have: the item's limit, or a document's.
    package static func sizeLimit(of request: TransferRequest) -> Int64 {
        if case .document(let limit) = request.expectation { return min(request.maximumSize, Int64(limit)) }
        return request.maximumSize
    }

    /// What is wrong with a 206, if anything: it must answer the range that was asked
    /// (`bytes=OFFSET-`), with a Content-Range whose start, end, total and length agree.
    private static func rangeProblem(_ head: ResponseHead, _ request: TransferRequest) -> String? {
        if let slice = request.slice { return sliceProblem(head, slice) }
        guard head.status == 206 else { return nil }
        guard let resume = request.resume else {
            return "the server answered 206 Partial Content to a request for the whole file"
        }
        if head.encoded {
            // Its byte ranges are of the encoding, not of the file the kept bytes begin: decoded
            // and spliced on, they would make a file of neither version (attacker trial).
            return "the server encoded the rest it sent (Content-Encoding), so it cannot continue the bytes kept"
        }
        guard let start = head.rangeStart, let end = head.rangeEnd else {
            return "the server answered 206 Partial Content without a usable Content-Range"
        }
        guard start == resume.offset else {
            return "the server resumed at byte \(start), not \(resume.offset)"
        }
        if end < start { return "the server's Content-Range ends (\(end)) before it starts (\(start))" }
        if let total = head.rangeTotal, end >= total {
            return "the server's Content-Range ends at byte \(end) of a \(total)-byte file"
        }
        // The size of the version whose start is kept: another size is another version.
        if let total = head.rangeTotal, total != resume.total {
            return "the server sent part of another version (a \(total)-byte file, not \(resume.total))"
        }
        if end >= resume.total {
            return "the server's Content-Range ends at byte \(end) of the \(resume.total)-byte file it resumes"
        }
        if let length = head.declaredLength, !head.encoded, length != end - start + 1 {
            return "the server's Content-Range (\(start)-\(end)) does not match its Content-Length (\(length))"
        }
        // If-Range asked for the rest of the version kept; a server that ignores it answers a 206
        // of another version, whose bytes would be spliced onto the first's. A 206 carries the
        // ETag a 200 would (RFC 9110, 15.3.7), so one without it cannot show it is the same.
        if TransferRequest.Resume.isStrongETag(resume.validator) {
            guard let etag = head.etag, !etag.isEmpty else {
                return "the server's 206 has no ETag to show it is the rest of the version kept"
            }
            if etag != resume.validator {
                return "the server sent part of another version (ETag \(etag), not \(resume.validator))"
            }
        } else {
            // The version was known by its date alone: the 206 must show the same one.
            guard let lastModified = head.lastModified, !lastModified.isEmpty else {
                return "the server's 206 has no Last-Modified to show it is the rest of the version kept"
            }
            if lastModified != resume.validator {
                return "the server sent part of another version (Last-Modified \(lastModified), not \(resume.validator))"
            }
        }
        return nil
    }

    /// What is wrong with the answer to a slice, if anything: it must be a 206 of exactly the
    /// bytes asked. A server that ignores `Range` answers 200 with the whole resource, which
    /// vodapp does not read through for one slice of it: every slice would cost the whole file.
    private static func sliceProblem(_ head: ResponseHead, _ slice: TransferRequest.Slice) -> String? {
        let asked = "bytes \(slice.offset)-\(slice.last)"
        guard head.status == 206 else {
            return "the server ignores byte ranges (it answered \(head.status) to a request for \(asked)), "
                + "which this stream's segments, byte ranges of one file, need"
        }
        if head.encoded { return "the server encoded the \(asked) asked (Content-Encoding): its byte ranges are of the encoding" }
        guard let start = head.rangeStart, let end = head.rangeEnd else {
            return "the server answered 206 Partial Content without a usable Content-Range"
        }
        guard start == slice.offset, end == slice.last else {
            return "the server sent bytes \(start)-\(end), not the \(asked) asked"
        }
        if let total = head.rangeTotal, end >= total {
            return "the server's Content-Range ends at byte \(end) of a \(total)-byte file"
        }
        if let length = head.declaredLength, !head.encoded, length != slice.length {
            return "the server's Content-Range (\(start)-\(end)) does not match its Content-Length (\(length))"
        }
        return nil
    }

    // MARK: Redirects

    /// Why a redirect is not followed.
    package struct RedirectRefusal: Error, Equatable {
        package let reason: String
    }

    /// The next hop of a redirect from `request` to `target` (as libcurl resolved it), checked as
    /// libcurl would check it and more: http and https only, what began over https stays on https
    /// (a redirect to http would hand the body to anyone on the path), and at most
    /// `maximumRedirects` hops.
    package static func redirect(_ request: TransferRequest, to target: String,
                                 maximumRedirects: Int) -> Result<TransferRequest, RedirectRefusal> {
        guard request.redirects < maximumRedirects else {
            return .failure(RedirectRefusal(reason: "more than \(maximumRedirects) redirects"))
        }
        let next: MediaURL
        do {
            next = try MediaURL(target)
        } catch {
            let shown = UntrustedText.sanitized(target, limit: 200, replacingControlsWith: "?")
            if request.originalURL.isHTTPS, case .unsupportedScheme = error {
                return .failure(RedirectRefusal(reason: "redirected from https to a URL that is not https (\(shown))"))
            }
            if case .unsupportedScheme = error {
                return .failure(RedirectRefusal(reason: "redirected to a URL that is not http or https (\(shown))"))
            }
            return .failure(RedirectRefusal(reason: "redirected to a URL that cannot be fetched (\(shown)): \(error)"))
        }
        if request.originalURL.isHTTPS && !next.isHTTPS {
            return .failure(RedirectRefusal(reason: "redirected from https to a URL that is not https (\(next.redacted))"))
        }
        return .success(request.redirected(to: next))
    }

    // MARK: When the transfer ends

    /// What arrived for one transfer, as it ended.
    package struct Arrival: Sendable {
        /// How libcurl ended it, in the kinds the judgement tells apart.
        package enum Ending: Sendable, Equatable {
            case ok
            /// A callback stopped it (`abort` says why), or the write failed.
            case writeError
            /// The body ended before its Content-Length.
            case partialFile
            /// The connection failed or broke: refused, a reset, nothing received.
            case connectionFailed
            /// libcurl's own timeout; `unreachable` says why when there was no connection.
            case timedOut(unreachable: String?)
            /// A malformed URL, an unsupported protocol, a certificate that does not verify:
            /// fetching again meets the same.
            case permanent
            case other
        }

        package var ending: Ending
        /// libcurl's message for it.
        package var message: String
        package var request: TransferRequest
        package var head: ResponseHead
        /// The final response's status as libcurl has it; 0 when no answer came.
        package var status: Int
        /// The final response's Content-Length as libcurl read it, else the header's.
        package var contentLength: Int64?
        /// Body bytes of this response.
        package var bodyBytes: Int64
        /// Bytes the file held before this response's body: the resume offset on a 206.
        package var baseOffset: Int64
        /// Why a callback stopped the transfer.
        package var abort: TransferAbort?
        /// Why the body, arrived whole, is not kept (`TransferContext.finishBody`): asked only
        /// for a 2xx that libcurl ended well.
        package var bodyEnd: TransferAbort?
        /// The body went to memory.
        package var captured: [UInt8]?
        /// The user gave `--header` or `--cookies`, which this request did not carry.
        package var credentialsHeldBack: Bool

        package init(ending: Ending, message: String, request: TransferRequest, head: ResponseHead, status: Int,
                     contentLength: Int64?, bodyBytes: Int64, baseOffset: Int64, abort: TransferAbort? = nil,
                     bodyEnd: TransferAbort? = nil, captured: [UInt8]? = nil, credentialsHeldBack: Bool = false) {
            self.ending = ending
            self.message = message
            self.request = request
            self.head = head
            self.status = status
            self.contentLength = contentLength
            self.bodyBytes = bodyBytes
            self.baseOffset = baseOffset
            self.abort = abort
            self.bodyEnd = bodyEnd
            self.captured = captured
            self.credentialsHeldBack = credentialsHeldBack
        }

        /// Bytes in the temporary file, or held to decide on: what the item has so far.
        var fileBytes: Int64 { baseOffset + bodyBytes }
    }

    /// A transfer's result, and what becomes of its bytes.
    package struct Judgement: Sendable, Equatable {
        package var result: TransferOutcome.Result
        package var isFinal = false
        package var again = TransferScheduler.Again.no
        /// Whether the bytes in the file may be kept to resume from.
        package var keep = true
    }

    /// What a transfer that was not redirected came to.
    package static func judge(_ arrival: Arrival) -> Judgement {
        var judgement = judgeAnswer(arrival)
        if arrival.status == 401 || arrival.status == 403, case .failed(let reason) = judgement.result, arrival.credentialsHeldBack {
            // The user gave credentials, and they were held back on purpose: say so, or a 403 from
            // a CDN a redirect led to reads like a wrong token.
            let request = arrival.request
            judgement.result = .failed(reason: reason + " (--header and --cookies go to \(request.credentialScope.origin) only, "
                                       + "not to \(request.url.origin), where a redirect or a playlist led)")
        }
        return judgement
    }

    private static func judgeAnswer(_ arrival: Arrival) -> Judgement {
        let status = arrival.status
        let request = arrival.request
        let head = arrival.head
        if status == 416, request.resume != nil, arrival.ending == .ok || arrival.ending == .writeError {
            // The kept bytes reach past the file's end as the server now has it: they are not
            // part of it, and it is asked for whole.
            return Judgement(result: .failed(reason: "the server refused to resume (HTTP 416)"), again: .later, keep: false)
        }
        switch arrival.ending {
        case .ok:
            guard (200..<300).contains(status) else { return judge(status: status) }
            if status == 204 {
                return Judgement(result: .failed(reason: "the server answered 204 No Content: there is nothing to download"),
                                 keep: false)
            }
            // An encoded body's Content-Length counts the encoded bytes, not the ones written.
            if let length = arrival.contentLength, length != arrival.bodyBytes, !head.encoded {
                return Judgement(result: .failed(reason: "the body has \(arrival.bodyBytes) bytes, Content-Length said \(length)"),
                                 keep: false)
            }
            if let abort = arrival.bodyEnd {
                return judge(abort, arrival)
            }
            if let slice = request.slice {
                // Its Content-Range was checked to be the slice when the headers ended.
                guard arrival.bodyBytes == slice.length else {
                    return Judgement(
                        result: .failed(reason: "the connection closed after \(arrival.bodyBytes) of the \(slice.length) bytes of the range asked"),
                        again: .later, keep: false)
                }
                // A document's slice (a DASH segment index) went to memory.
                return Judgement(result: arrival.captured.map { .captured($0) } ?? .completed(bytes: arrival.fileBytes))
            }
            if status == 206, let end = head.rangeEnd, arrival.fileBytes != end + 1 {
                // Without a Content-Length, libcurl takes the connection's end for the body's.
                return Judgement(
                    result: .failed(reason: "the connection closed after \(arrival.bodyBytes) of the \(end + 1 - arrival.baseOffset) bytes its Content-Range names"),
                    again: .later)
            }
            if status == 206, let total = head.rangeTotal ?? request.resume?.total, arrival.fileBytes != total {
                guard arrival.fileBytes < total else {
                    return Judgement(result: .failed(reason: "the server sent \(arrival.fileBytes) bytes of a \(total)-byte file"),
                                     keep: false)
                }
                // Honest about what it sent, but not all of it: the bytes are good, and the rest
                // is asked for again, at once when the answer was worth a request (64 KiB, or an
                // eighth of what was missing); a server that sends a few bytes each time waits its
                // turn like any failure, or it would get hundreds of requests a second.
                let worthIt = arrival.bodyBytes >= 64 * 1024 || arrival.bodyBytes * 8 >= total - arrival.baseOffset
                return Judgement(
                    result: .failed(reason: "the server sent bytes \(arrival.baseOffset)-\(arrival.fileBytes - 1) of \(total), not the rest"),
                    again: worthIt ? .now : .later)
            }
            if let captured = arrival.captured { return Judgement(result: .captured(captured)) }
            return Judgement(result: .completed(bytes: arrival.fileBytes))
        case .writeError:
            guard let abort = arrival.abort else { return Judgement(result: .failed(reason: arrival.message)) }
            return judge(abort, arrival)
        case .partialFile:
            let expected = arrival.contentLength.map { " of \($0)" } ?? ""
            return Judgement(result: .failed(reason: "the connection closed after \(arrival.bodyBytes)\(expected) bytes"), again: .later)
        case .connectionFailed:
            return Judgement(result: .failed(reason: arrival.message), again: .later)
        case .timedOut(let unreachable?):
            // Not retried: waiting out the same silence again would cost the same seconds.
            return Judgement(result: .failed(reason: unreachable))
        case .timedOut(nil):
            return Judgement(result: .timedOut(reason: arrival.message))
        case .permanent:
            // Fetching again meets the same URL and the same certificate.
            return Judgement(result: .failed(reason: arrival.message), isFinal: true)
        case .other:
            return Judgement(result: .failed(reason: arrival.message))
        }
    }

    /// An error status: 408, 425, 429 and 5xx may pass, so they are retried and temporary; other
    /// 4xx are the same next time (a 404, a 403 for an expired signed URL).
    package static func judge(status: Int) -> Judgement {
        let reason = "the server answered HTTP \(status)"
        if status == 408 || status == 425 || status == 429 || (500...599).contains(status) {
            return Judgement(result: .failed(reason: reason), again: .later)
        }
        return Judgement(result: .failed(reason: reason), isFinal: (400...499).contains(status))
    }

    private static func judge(_ abort: TransferAbort, _ arrival: Arrival) -> Judgement {
        let head = arrival.head
        switch abort {
        case .httpStatus(let status):
            return judge(status: status)
        case .tooLarge:
            // An encoded body's Content-Length is the compressed size, not the file's: a gzip bomb
            // of 1 MB is not "1 MB, over the limit".
            return Judgement(result: .tooLarge(declaredSize: head.encoded ? nil : head.declaredTotal(for: arrival.request) ?? arrival.contentLength))
        case .fileError(let text):
            // A full disk needs its space back.
            return Judgement(result: .failed(reason: "cannot write the file: \(text)"), keep: false)
        case .badRange(let text):
            // A server that resumed at the wrong byte cannot be trusted with this file.
            return Judgement(result: .failed(reason: text), keep: false)
        case .noRoom:
            // Its bytes go, to give the room back; freeing space makes a later delivery succeed.
            let size = head.encoded ? nil : head.declaredLength
            return Judgement(result: .failed(reason: arrival.request.room?.refusal(size: size) ?? "no room left on the disk"), keep: false)
        case .noSpace(let needed, let free, let capacity):
            // Larger than the whole file system, it never fits: said so, and not tried again.
            if let capacity, needed > capacity {
                return Judgement(result: .failed(reason: "not fetched: its \(ByteSize.format(needed)) are more than the whole disk "
                                                 + "holds (\(ByteSize.format(capacity)))"), isFinal: true, keep: false)
            }
            let room = free.map { ", which has \(ByteSize.format($0)) free" } ?? ""
            return Judgement(result: .failed(reason: "not fetched: its \(ByteSize.format(needed)) do not fit on the disk\(room)"),
                             keep: false)
        case .rejected(let text, let isFinal):
            // Judged before a byte of it reached the file: bytes an earlier response kept (a login
            // page answering the resume of a cut video) are still the video's, and stay.
            return Judgement(result: .failed(reason: text), isFinal: isFinal, keep: true)
        }
    }

    // MARK: Hosts that do not answer

    /// Why a transfer libcurl timed out got no connection, or nil when it had one: its connect
    /// timeout ran out, not the deadline (which the engine cuts itself before libcurl's backstop).
    /// - Parameters:
    ///   - answered: a response's status line arrived.
    ///   - resolving: libcurl's message says the name lookup timed out.
    package static func unreachableReason(_ url: MediaURL, answered: Bool, resolving: Bool, connected: Bool, handshaken: Bool,
                                          connectTimeout: Duration) -> String? {
        guard !answered else { return nil }
        let within = "within \(describe(connectTimeout))"
        if resolving { return "the name \(url.host) did not resolve \(within)" }
        if !connected { return "\(url.endpoint) did not accept a connection \(within)" }
        if url.isHTTPS && !handshaken {
            return "\(url.endpoint) accepted a connection but did not finish the TLS handshake \(within)"
        }
        return nil
    }

    /// `5 s`, `2.5 s`.
    private static func describe(_ duration: Duration) -> String {
        let tenths = (duration.milliseconds + 50) / 100
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }
}
