import Foundation
import Testing
import VODAppTransferPolicy

/// What a server's headers mean, line by line as libcurl hands them over: the numbers hostile
/// servers sent to overflow a sum or a clock, and the forms RFC 9110 allows.
@Suite struct ResponseHeadTests {
    /// Fri, 15 Jan 2027 08:00:00 GMT: when the headers arrive.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func head(_ lines: [String]) -> ResponseHead {
        var head = ResponseHead()
        for line in lines { head.take(line + "\r\n", now: now) }
        return head
    }

    /// RFC 9112 6.3 makes a response whose length is not one number unusable; RFC 9110 8.6 lets a
    /// list of one number repeated be that number.
    @Test(arguments: [
        (["99999999999999999999999999"], nil), (["9223372036854775808"], nil), (["+1000"], nil), (["-1"], nil),
        (["1000, 500"], nil), (["1000", "500"], nil), ([""], nil), (["1e3"], nil),
        (["1000, 1000"], 1000), (["1000", "1000"], 1000), (["0"], 0), (["999999999999999999"], 999_999_999_999_999_999),
    ] as [([String], Int64?)])
    func aContentLengthIsTakenOnlyWhenItIsOneNumber(_ values: [String], length: Int64?) {
        let head = Self.head(["HTTP/1.1 200 OK"] + values.map { "Content-Length: \($0)" })
        // What the response may be taken as: one whose length is invalid is refused whole
        // (`ResponseValidator`), whatever number came first.
        let usable = head.invalidLength == nil ? head.declaredLength : nil
        #expect(usable == length)
        #expect((head.invalidLength == nil) == (length != nil))
    }

    @Test(arguments: [
        ("bytes 100-199/1000", 100, 199, 1000), ("bytes 0-0/*", 0, 0, nil), ("BYTES 5-9/10", 5, 9, 10),
        ("bytes 0-9223372036854775807/9223372036854775808", nil, nil, nil), ("bytes -5/10", nil, nil, nil),
        ("bytes 1-2", nil, nil, nil), ("items 1-2/3", nil, nil, nil), ("bytes 1-2/x", nil, nil, nil), ("bytes +1-2/3", nil, nil, nil),
    ] as [(String, Int64?, Int64?, Int64?)])
    func aContentRangeIsTakenOnlyWhenEveryNumberIsPlain(_ value: String, start: Int64?, end: Int64?, total: Int64?) {
        let range = ResponseHead.parse(contentRange: value)
        #expect(range.start == start)
        #expect(range.end == end)
        #expect(range.total == total)
    }

    @Test(arguments: [
        ("120", 120.0), ("0", 0), ("86401", 86_400), ("9999999999999999999999999", 86_400),
        ("inf", nil), ("1e300", nil), ("-5", nil), ("", nil), ("soon", nil),
        // An HTTP date counts from when the header arrived; one past is now.
        ("Fri, 15 Jan 2027 08:00:30 GMT", 30), ("Fri, 15 Jan 2027 07:00:00 GMT", 0),
    ] as [(String, Double?)])
    func aRetryAfterIsSecondsOrADateAndNeverMoreThanADay(_ value: String, seconds: Double?) {
        #expect(ResponseHead.seconds(retryAfter: value, now: Self.now) == seconds)
    }

    @Test func aNewStatusLineForgetsTheLastResponsesHeaders() {
        var head = Self.head(["HTTP/1.1 301 Moved", "Content-Length: 10", "ETag: \"a\"", "Retry-After: 5", "Content-Encoding: gzip"])
        #expect(head.take("\r\n", now: Self.now) == .other, "a redirect's headers end without a body to take")
        #expect(head.take("HTTP/1.1 200 OK\r\n", now: Self.now) == .status)
        #expect(head == { var fresh = ResponseHead(); fresh.take("HTTP/1.1 200 OK\r\n", now: Self.now); return fresh }())
        #expect(head.status == 200)
        #expect(head.take("\r\n", now: Self.now) == .bodyFollows)
    }

    @Test(arguments: [("gzip", true), ("identity", false), ("IDENTITY", false), ("", false), ("br", true)])
    func anEncodedBodyIsOnlyOneWithARealContentEncoding(_ value: String, encoded: Bool) {
        #expect(Self.head(["HTTP/1.1 200 OK", "Content-Encoding: \(value)"]).encoded == encoded)
    }

    @Test(arguments: [
        ("video/mp4", "video/mp2t", "video/mp4"), ("application/octet-stream", "video/mp4", "video/mp4"),
        ("text/plain; charset=utf-8", "video/mp2t", "video/mp2t"), (nil, "video/mp4", "video/mp4"), (nil, nil, nil),
    ] as [(String?, String?, String?)])
    func theFileIsNamedByTheServersTypeUnlessItSaysNothing(_ declared: String?, sniffed: String?, named: String?) {
        let head = Self.head(["HTTP/1.1 200 OK"] + (declared.map { ["Content-Type: \($0)"] } ?? []))
        #expect(head.effectiveContentType(sniffed: sniffed) == named)
    }

    /// Space and tab around a field's name and value are not part of them (RFC 9110 5.6.3), nor
    /// the line's end; a no-break space is, as libcurl sees it: such a line names no field vodapp
    /// knows, and its value is not taken.
    @Test func onlySpaceAndTabAroundANameOrValueAreDropped() {
        let head = Self.head(["HTTP/1.1 200 OK", "Content-Length: \t 1234 \t", "ETag:\"abc\"", " Content-Type :  video/mp4  "])
        #expect(head.declaredLength == 1234)
        #expect(head.etag == "\"abc\"")
        #expect(head.contentType == "video/mp4")
        let spaced = Self.head(["HTTP/1.1 200 OK", "\u{A0}Content-Length: 99", "ETag: \u{A0}x\u{A0}"])
        #expect(spaced.declaredLength == nil)
        #expect(spaced.etag == "\u{A0}x\u{A0}")
        #expect(ResponseHead.trimmed(" \t\r\n") == "")
        #expect(ResponseHead.trimmed("\r\n") == "")
    }
}
