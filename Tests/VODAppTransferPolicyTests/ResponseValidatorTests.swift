import Foundation
import Testing
import VODAppModel
import VODAppTransferPolicy

/// What vodapp makes of an answer, without a server: the policy rows of the fault matrix
/// (docs/RELIABILITY.md). The end-to-end rows that stay show what only a real server and the
/// built binary can: that the bytes on disk and the exit code follow from these verdicts.
@Suite struct ResponseValidatorTests {
    static let mebibyte: Int64 = 1 << 20

    static func request(_ url: String = "http://a.example/v.mp4", resume: TransferRequest.Resume? = nil,
                        slice: TransferRequest.Slice? = nil, expectation: TransferRequest.Expectation = .media,
                        maximumSize: Int64 = 20 * mebibyte) throws -> TransferRequest {
        TransferRequest(id: "v", url: try MediaURL(url), temporaryPath: "/nonexistent/v.part", maximumSize: maximumSize,
                        resume: resume, expectation: expectation, slice: slice)
    }

    static func head(_ lines: String...) -> ResponseHead {
        var head = ResponseHead()
        for line in lines { head.take(line + "\r\n", now: Date()) }
        return head
    }

    static let kept = TransferRequest.Resume(offset: 1000, validator: "\"v1\"", total: 5000)

    // MARK: When the headers end

    @Test(arguments: [
        // A resume answered with the rest of the version kept.
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 1000-4999/5000", "Content-Length: 4000", "ETag: \"v1\""], nil),
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 1000-4999/5000", "ETag: \"v1\""], nil),
        // A server that ignores If-Range or Range and sends the whole: taken, from the start.
        (["HTTP/1.1 200 OK", "Content-Length: 5000"], nil),
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 0-4999/5000", "ETag: \"v1\""], "the server resumed at byte 0, not 1000"),
        (["HTTP/1.1 206 Partial", "ETag: \"v1\""], "the server answered 206 Partial Content without a usable Content-Range"),
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 1000-999/5000", "ETag: \"v1\""], "the server's Content-Range ends (999) before it starts (1000)"),
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 1000-5000/5000", "ETag: \"v1\""], "the server's Content-Range ends at byte 5000 of a 5000-byte file"),
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 1000-5999/6000", "ETag: \"v1\""], "the server sent part of another version (a 6000-byte file, not 5000)"),
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 1000-5999/*", "ETag: \"v1\""], "the server's Content-Range ends at byte 5999 of the 5000-byte file it resumes"),
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 1000-4999/5000", "Content-Length: 10", "ETag: \"v1\""],
         "the server's Content-Range (1000-4999) does not match its Content-Length (10)"),
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 1000-4999/5000"], "the server's 206 has no ETag to show it is the rest of the version kept"),
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 1000-4999/5000", "ETag: \"v2\""], "the server sent part of another version (ETag \"v2\", not \"v1\")"),
        // An encoded 206's ranges are of the encoding: decoded and spliced on, a file of neither version.
        (["HTTP/1.1 206 Partial", "Content-Range: bytes 1000-4999/5000", "ETag: \"v1\"", "Content-Encoding: gzip"],
         "the server encoded the rest it sent (Content-Encoding), so it cannot continue the bytes kept"),
    ] as [([String], String?)])
    func aResumeIsTakenOnlyAsTheRestOfTheVersionKept(_ lines: [String], problem: String?) throws {
        var head = ResponseHead()
        for line in lines { head.take(line + "\r\n", now: Date()) }
        let refusal = ResponseValidator.refusal(of: head, to: try Self.request(resume: Self.kept), roomAvailable: nil)
        #expect(refusal == problem.map { .badRange($0) })
    }

    @Test func aResumeKnownByItsDateMustShowTheSameDate() throws {
        let byDate = TransferRequest.Resume(offset: 10, validator: "Mon, 01 Jan 2024 00:00:00 GMT", total: 20)
        let request = try Self.request(resume: byDate)
        let same = Self.head("HTTP/1.1 206 Partial", "Content-Range: bytes 10-19/20", "Last-Modified: Mon, 01 Jan 2024 00:00:00 GMT")
        let other = Self.head("HTTP/1.1 206 Partial", "Content-Range: bytes 10-19/20", "Last-Modified: Tue, 02 Jan 2024 00:00:00 GMT")
        #expect(ResponseValidator.refusal(of: same, to: request, roomAvailable: nil) == nil)
        #expect(ResponseValidator.refusal(of: other, to: request, roomAvailable: nil)
            == .badRange("the server sent part of another version (Last-Modified Tue, 02 Jan 2024 00:00:00 GMT, not Mon, 01 Jan 2024 00:00:00 GMT)"))
    }

    @Test func a206ToARequestForTheWholeFileIsRefused() throws {
        let head = Self.head("HTTP/1.1 206 Partial", "Content-Range: bytes 0-99/100")
        #expect(ResponseValidator.refusal(of: head, to: try Self.request(), roomAvailable: nil)
            == .badRange("the server answered 206 Partial Content to a request for the whole file"))
    }

    @Test func aSliceMustBeAnsweredWithExactlyItsBytesAndAServerIgnoringRangesIsFinal() throws {
        let request = try Self.request(slice: TransferRequest.Slice(offset: 100, length: 50), expectation: .segment)
        let exact = Self.head("HTTP/1.1 206 Partial", "Content-Range: bytes 100-149/1000", "Content-Length: 50")
        let shifted = Self.head("HTTP/1.1 206 Partial", "Content-Range: bytes 101-150/1000")
        let whole = Self.head("HTTP/1.1 200 OK", "Content-Length: 1000")
        #expect(ResponseValidator.refusal(of: exact, to: request, roomAvailable: nil) == nil)
        let encoded = Self.head("HTTP/1.1 206 Partial", "Content-Range: bytes 100-149/1000", "Content-Encoding: gzip")
        #expect(ResponseValidator.refusal(of: encoded, to: request, roomAvailable: nil)
            == .badRange("the server encoded the bytes 100-149 asked (Content-Encoding): its byte ranges are of the encoding"))
        #expect(ResponseValidator.refusal(of: shifted, to: request, roomAvailable: nil)
            == .badRange("the server sent bytes 101-150, not the bytes 100-149 asked"))
        #expect(ResponseValidator.refusal(of: whole, to: request, roomAvailable: nil) == .rejected(
            "the server ignores byte ranges (it answered 200 to a request for bytes 100-149), "
                + "which this stream's segments, byte ranges of one file, need", final: true))
    }

    @Test func sizeIsJudgedBeforeTheBodyByTheWholeFilesLengthNotAnEncodedOne() throws {
        let limit = try Self.request(maximumSize: 1000)
        #expect(ResponseValidator.refusal(of: Self.head("HTTP/1.1 200 OK", "Content-Length: 1001"), to: limit, roomAvailable: nil) == .tooLarge)
        #expect(ResponseValidator.refusal(of: Self.head("HTTP/1.1 200 OK", "Content-Length: 1000"), to: limit, roomAvailable: nil) == nil)
        // A gzip body's length is the compressed size: it is judged as it arrives instead.
        let gzip = Self.head("HTTP/1.1 200 OK", "Content-Length: 5000", "Content-Encoding: gzip")
        #expect(ResponseValidator.refusal(of: gzip, to: limit, roomAvailable: nil) == nil)
        // A resumed answer's length is only the rest: the whole file's size decides.
        let resumed = try Self.request(resume: TransferRequest.Resume(offset: 900, validator: "\"v\"", total: 2000), maximumSize: 1000)
        let rest = Self.head("HTTP/1.1 206 Partial", "Content-Range: bytes 900-1999/2000", "Content-Length: 1100", "ETag: \"v\"")
        #expect(ResponseValidator.refusal(of: rest, to: resumed, roomAvailable: nil) == .tooLarge)
        // A document (a playlist, a key) has its own, smaller limit.
        let key = try Self.request(expectation: .document(limit: 64))
        #expect(ResponseValidator.refusal(of: Self.head("HTTP/1.1 200 OK", "Content-Length: 65"), to: key, roomAvailable: nil) == .tooLarge)
    }

    @Test func aBodyThatWouldNotFitInTheRoomLeftIsNotStarted() throws {
        let head = Self.head("HTTP/1.1 200 OK", "Content-Length: 5000")
        #expect(ResponseValidator.refusal(of: head, to: try Self.request(), roomAvailable: 4999) == .noRoom)
        #expect(ResponseValidator.refusal(of: head, to: try Self.request(), roomAvailable: 5000) == nil)
        let unknown = Self.head("HTTP/1.1 200 OK")
        #expect(ResponseValidator.refusal(of: unknown, to: try Self.request(), roomAvailable: 0) == nil, "stopped as it stops fitting")
    }

    @Test func aContentLengthThatIsNotOneNumberMakesTheResponseUnusable() throws {
        let head = Self.head("HTTP/1.1 200 OK", "Content-Length: 1000", "Content-Length: 500")
        #expect(ResponseValidator.refusal(of: head, to: try Self.request(), roomAvailable: nil)
            == .rejected("the server sent an invalid Content-Length (500)", final: false))
    }

    // MARK: When the transfer ends

    static func arrival(_ ending: ResponseValidator.Arrival.Ending = .ok, status: Int = 200, head: ResponseHead = head("HTTP/1.1 200 OK"),
                        request: TransferRequest? = nil, contentLength: Int64? = nil, bodyBytes: Int64 = 0, baseOffset: Int64 = 0,
                        abort: TransferAbort? = nil, bodyEnd: TransferAbort? = nil, captured: [UInt8]? = nil,
                        credentialsHeldBack: Bool = false, message: String = "libcurl said so") throws -> ResponseValidator.Arrival {
        ResponseValidator.Arrival(ending: ending, message: message, request: try request ?? Self.request(), head: head, status: status,
                                  contentLength: contentLength, bodyBytes: bodyBytes, baseOffset: baseOffset, abort: abort,
                                  bodyEnd: bodyEnd, captured: captured, credentialsHeldBack: credentialsHeldBack)
    }

    /// 408, 425, 429 and 5xx may pass, and are retried; other 4xx are the same next time.
    @Test(arguments: [(404, false, true), (410, false, true), (403, false, true), (408, true, false), (425, true, false),
                      (429, true, false), (500, true, false), (503, true, false), (599, true, false), (304, false, false)])
    func anErrorStatusIsRetriedOrFinalByWhatItMeans(_ status: Int, retried: Bool, final: Bool) throws {
        let judgement = ResponseValidator.judge(try Self.arrival(status: status))
        #expect(judgement.result == .failed(reason: "the server answered HTTP \(status)"))
        #expect(judgement.again == (retried ? .later : .no))
        #expect(judgement.isFinal == final)
    }

    @Test func aBodyWhoseLengthDisagreesWithItsContentLengthIsNotKept() throws {
        let judgement = ResponseValidator.judge(try Self.arrival(contentLength: 100_000, bodyBytes: 40_000))
        #expect(judgement.result == .failed(reason: "the body has 40000 bytes, Content-Length said 100000"))
        #expect(!judgement.keep)
        // Decoded bytes are not counted against the encoded length.
        let gzip = try Self.arrival(head: Self.head("HTTP/1.1 200 OK", "Content-Encoding: gzip"), contentLength: 300, bodyBytes: 100_000)
        #expect(ResponseValidator.judge(gzip).result == .completed(bytes: 100_000))
    }

    @Test func aResumedBodyCountsTheKeptBytesAndAShort206IsAskedForAgainByWhatItBrought() throws {
        let request = try Self.request(resume: TransferRequest.Resume(offset: 1000, validator: "\"v\"", total: 1_000_000))
        func short(_ bytes: Int64) throws -> ResponseValidator.Judgement {
            ResponseValidator.judge(try Self.arrival(status: 206, head: Self.head("HTTP/1.1 206 Partial", "Content-Range: bytes 1000-\(999 + bytes)/1000000"),
                                                     request: request, bodyBytes: bytes, baseOffset: 1000))
        }
        let whole = ResponseValidator.judge(try Self.arrival(
            status: 206, head: Self.head("HTTP/1.1 206 Partial", "Content-Range: bytes 1000-999999/1000000"),
            request: request, bodyBytes: 999_000, baseOffset: 1000))
        #expect(whole.result == .completed(bytes: 1_000_000))
        // Worth a request at once: 64 KiB or an eighth of what was missing.
        #expect(try short(65_536).again == .now)
        #expect(try short(65_535).again == .later)
        #expect(try short(65_535).result == .failed(reason: "the server sent bytes 1000-66534 of 1000000, not the rest"))
        #expect(try short(65_535).keep)
    }

    @Test func a206CutShortOfItsContentRangeIsRetriedAndOneLongerThanTheFileIsNotKept() throws {
        let request = try Self.request(resume: TransferRequest.Resume(offset: 1000, validator: "\"v\"", total: 5000))
        let cut = ResponseValidator.judge(try Self.arrival(
            status: 206, head: Self.head("HTTP/1.1 206 Partial", "Content-Range: bytes 1000-4999/5000"), request: request,
            bodyBytes: 1500, baseOffset: 1000))
        #expect(cut.result == .failed(reason: "the connection closed after 1500 of the 4000 bytes its Content-Range names"))
        #expect(cut.again == .later)
        #expect(cut.keep)
    }

    @Test func aRefusedResumeIsAskedForWholeWithoutTheKeptBytes() throws {
        let request = try Self.request(resume: Self.kept)
        let judgement = ResponseValidator.judge(try Self.arrival(status: 416, head: Self.head("HTTP/1.1 416 Range Not Satisfiable"),
                                                                 request: request))
        #expect(judgement.result == .failed(reason: "the server refused to resume (HTTP 416)"))
        #expect(judgement.again == .later)
        #expect(!judgement.keep)
    }

    @Test func noContentIsNothingToDownload() throws {
        let judgement = ResponseValidator.judge(try Self.arrival(status: 204))
        #expect(judgement.result == .failed(reason: "the server answered 204 No Content: there is nothing to download"))
        #expect(!judgement.keep)
    }

    @Test func whatTheCallbacksStoppedIsJudgedByWhy() throws {
        func judged(_ abort: TransferAbort, head: ResponseHead = Self.head("HTTP/1.1 200 OK", "Content-Length: 30000000")) throws
            -> ResponseValidator.Judgement {
            ResponseValidator.judge(try Self.arrival(.writeError, head: head, abort: abort))
        }
        #expect(try judged(.tooLarge).result == .tooLarge(declaredSize: 30_000_000))
        #expect(try judged(.tooLarge, head: Self.head("HTTP/1.1 200 OK", "Content-Encoding: gzip", "Content-Length: 300")).result
            == .tooLarge(declaredSize: nil), "a gzip bomb's compressed size is not the file's")
        #expect(try judged(.httpStatus(503)).again == .later)
        #expect(try judged(.rejected("a login page", final: false)).keep, "judged before a byte reached the file")
        #expect(try !judged(.badRange("spliced")).keep)
        #expect(try judged(.fileError("No space left on device")).result == .failed(reason: "cannot write the file: No space left on device"))
        let larger = try judged(.noSpace(needed: 6 * Self.mebibyte, free: Self.mebibyte, capacity: 4 * Self.mebibyte))
        #expect(larger.result == .failed(reason: "not fetched: its 6.0 MiB are more than the whole disk holds (4.0 MiB)"))
        #expect(larger.isFinal)
        let notNow = try judged(.noSpace(needed: 3 * Self.mebibyte, free: Self.mebibyte, capacity: 8 * Self.mebibyte))
        #expect(notNow.result == .failed(reason: "not fetched: its 3.0 MiB do not fit on the disk, which has 1.0 MiB free"))
        #expect(!notNow.isFinal)
        // A body arrived whole but not as media: the sniffer's verdict.
        let page = ResponseValidator.judge(try Self.arrival(bodyBytes: 10, bodyEnd: .rejected("the server answered with a web page", final: false)))
        #expect(page.result == .failed(reason: "the server answered with a web page"))
    }

    @Test func connectionFailuresAreRetriedAndCertificateFailuresAreFinal() throws {
        let reset = ResponseValidator.judge(try Self.arrival(.connectionFailed, status: 0, message: "Connection reset by peer"))
        #expect(reset.result == .failed(reason: "Connection reset by peer"))
        #expect(reset.again == .later)
        let certificate = ResponseValidator.judge(try Self.arrival(.permanent, status: 0, message: "SSL certificate problem"))
        #expect(certificate.isFinal)
        #expect(certificate.again == .no)
        let silent = ResponseValidator.judge(try Self.arrival(.timedOut(unreachable: "a.example:80 did not accept a connection within 5 s"), status: 0))
        #expect(silent.result == .failed(reason: "a.example:80 did not accept a connection within 5 s"))
        #expect(silent.again == .no, "waiting out the same silence again costs the same seconds")
        let backstop = ResponseValidator.judge(try Self.arrival(.timedOut(unreachable: nil), message: "Operation timed out"))
        #expect(backstop.result == .timedOut(reason: "Operation timed out"))
        let partial = ResponseValidator.judge(try Self.arrival(.partialFile, contentLength: 100_000, bodyBytes: 40_000))
        #expect(partial.result == .failed(reason: "the connection closed after 40000 of 100000 bytes"))
    }

    @Test func aRefusalWhereCredentialsWereHeldBackSaysSo() throws {
        let request = try Self.request("https://cdn.example/v.mp4")
        let held = ResponseValidator.judge(try Self.arrival(status: 403, request: request, credentialsHeldBack: true))
        guard case .failed(let reason) = held.result else { Issue.record("\(held.result)"); return }
        #expect(reason.hasPrefix("the server answered HTTP 403 (--header and --cookies go to "))
        #expect(reason.hasSuffix("not to https://cdn.example:443, where a redirect or a playlist led)"))
        #expect(ResponseValidator.judge(try Self.arrival(status: 403, request: request)).result == .failed(reason: "the server answered HTTP 403"))
    }

    // MARK: Redirects

    @Test(arguments: [
        ("http://a.example/v.mp4", "file:///etc/passwd", "redirected to a URL that is not http or https (file:///etc/passwd)"),
        ("http://a.example/v.mp4", "ftp://127.0.0.1/a.mp4", "redirected to a URL that is not http or https (ftp://127.0.0.1/a.mp4)"),
        ("http://a.example/v.mp4", "gopher://127.0.0.1/1", "redirected to a URL that is not http or https (gopher://127.0.0.1/1)"),
        ("https://a.example/v.mp4", "http://a.example/v.mp4", "redirected from https to a URL that is not https (http://a.example/v.mp4)"),
        ("https://a.example/v.mp4", "file:///etc/passwd", "redirected from https to a URL that is not https (file:///etc/passwd)"),
        ("http://a.example/v.mp4", "https://cdn.example/v.mp4", nil),
        ("https://a.example/v.mp4", "https://cdn.example/v.mp4", nil),
    ] as [(String, String, String?)])
    func aRedirectLeadsOnlyToHttpOrHttpsAndNeverDownFromHttps(_ from: String, to: String, refusal: String?) throws {
        switch ResponseValidator.redirect(try Self.request(from), to: to, maximumRedirects: 5) {
        case .success(let next):
            #expect(refusal == nil)
            #expect(next.url.absoluteString == to)
            #expect(next.originalURL.absoluteString == from)
            #expect(next.redirects == 1)
        case .failure(let refused):
            #expect(refused.reason == refusal)
        }
    }

    @Test func theSixthHopOfARedirectIsRefused() throws {
        var request = try Self.request()
        for hop in 1...5 {
            guard case .success(let next) = ResponseValidator.redirect(request, to: "http://a.example/\(hop)", maximumRedirects: 5) else {
                Issue.record("hop \(hop) was refused")
                return
            }
            request = next
        }
        guard case .failure(let refusal) = ResponseValidator.redirect(request, to: "http://a.example/6", maximumRedirects: 5) else {
            Issue.record("the sixth hop was followed")
            return
        }
        #expect(refusal.reason == "more than 5 redirects")
    }

    // MARK: Hosts that do not answer

    @Test func whyAHostDidNotAnswerNamesWhatItDidNotDo() throws {
        let plain = try MediaURL("http://a.example:8080/v.mp4")
        let tls = try MediaURL("https://a.example/v.mp4")
        func reason(_ url: MediaURL, answered: Bool = false, resolving: Bool = false, connected: Bool = false,
                    handshaken: Bool = false) -> String? {
            ResponseValidator.unreachableReason(url, answered: answered, resolving: resolving, connected: connected,
                                                handshaken: handshaken, connectTimeout: .milliseconds(2500))
        }
        #expect(reason(plain, resolving: true) == "the name a.example did not resolve within 2.5 s")
        #expect(reason(plain) == "a.example:8080 did not accept a connection within 2.5 s")
        #expect(reason(tls, connected: true) == "a.example:443 accepted a connection but did not finish the TLS handshake within 2.5 s")
        #expect(reason(tls, connected: true, handshaken: true) == nil)
        #expect(reason(plain, answered: true) == nil)
    }
}
