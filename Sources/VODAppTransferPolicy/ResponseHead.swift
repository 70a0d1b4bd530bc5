import Foundation
import VODAppBase

/// A response's status and the headers vodapp reads, taken line by line as libcurl hands them
/// over: a pure value, so that what a hostile server's headers mean is tested without one.
///
/// Numbers are taken only when they are plainly numbers, and far below Int64's end: a server's
/// lengths and ranges are added to and compared, and must never overflow.
package struct ResponseHead: Sendable, Equatable {
    /// The status line's code; 0 before one arrived.
    package private(set) var status = 0
    /// The Content-Length, when it was one number (`takeContentLength`).
    package private(set) var declaredLength: Int64?
    /// A Content-Length that is not one number (`+1000`, 20 digits, two that differ), as sent:
    /// RFC 9112 6.3 makes such a response unusable, and taken for no length, its cut-off body
    /// would be placed as whole.
    package private(set) var invalidLength: String?
    /// A 206's `Content-Range: bytes START-END/TOTAL`; TOTAL is nil when the server wrote `*`.
    package private(set) var rangeStart: Int64?
    package private(set) var rangeEnd: Int64?
    package private(set) var rangeTotal: Int64?
    package private(set) var etag: String?
    package private(set) var lastModified: String?
    package private(set) var contentType: String?
    /// The response had a Content-Encoding: the file holds decoded bytes, which no byte range of
    /// the encoded representation can extend.
    package private(set) var encoded = false
    /// What `Retry-After` asked for, in seconds from when the header arrived.
    package private(set) var retryAfterSeconds: Double?

    /// A day: past any budget, and as far as the store's next-attempt hint needs to look.
    package static let longestRetryAfter: Double = 86_400

    package init() {}

    /// What a header line is.
    package enum Line: Equatable {
        /// A status line: a new response begins (a redirect's next, or the one after a 100).
        case status
        case field
        /// The empty line that ends the headers of a 2xx response: its body follows.
        case bodyFollows
        /// The end of another response's headers, or a line that means nothing here.
        case other
    }

    /// Takes one header line, received at `now` (what an HTTP-date `Retry-After` counts from,
    /// read only for that header).
    @discardableResult
    package mutating func take(_ text: String, now: @autoclosure () -> Date) -> Line {
        if text.hasPrefix("HTTP/") {
            // A new response (after a 100 Continue, or a redirect's): forget the last one's headers.
            self = ResponseHead()
            status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return .status
        }
        if let colon = text.firstIndex(of: ":") {
            let name = Self.trimmed(text[..<colon]).lowercased()
            let value = Self.trimmed(text[text.index(after: colon)...])
            switch name {
            case "content-length": takeContentLength(value)
            case "etag": etag = value
            case "last-modified": lastModified = value
            case "content-type": contentType = value
            case "content-encoding": encoded = !value.isEmpty && value.lowercased() != "identity"
            case "retry-after": retryAfterSeconds = Self.seconds(retryAfter: value, now: now())
            case "content-range": (rangeStart, rangeEnd, rangeTotal) = Self.parse(contentRange: value)
            default: break
            }
            return .field
        }
        if text == "\r\n" || text == "\n", (200..<300).contains(status) { return .bodyFollows }
        return .other
    }

    /// `field` without the whitespace HTTP allows around a field's name and value (RFC 9110 5.6.3:
    /// space and tab) and the line's end. Unicode's other spaces stay: libcurl does not take
    /// "\u{A0}Content-Length" for Content-Length, so neither may vodapp. (Foundation's trimming,
    /// per header line, was a twentieth of a small file's CPU.)
    package static func trimmed(_ field: Substring) -> String {
        let bytes = field.utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(field[first...last])
    }

    /// The size of the whole resource `request` asked for, as far as the headers tell.
    package func declaredTotal(for request: TransferRequest) -> Int64? {
        // A slice's whole is the slice, not the file it is a range of (the progress display
        // showed a segment's 416 KiB "of 6.5 MiB").
        if let slice = request.slice { return slice.length }
        return status == 206 ? rangeTotal : declaredLength
    }

    /// The type the file is named by: the server's, unless it says nothing useful
    /// (`application/octet-stream`, `text/plain`, none) and the bytes say more (`sniffed`).
    package func effectiveContentType(sniffed: String?) -> String? {
        let type = ContentTypeEssence.of(contentType)
        let vague = ["", "application/octet-stream", "binary/octet-stream", "text/plain", "application/x-download",
                     "application/force-download"].contains(type)
        return vague ? sniffed ?? contentType : contentType
    }

    /// Takes a Content-Length header: 1 to 18 digits (so that no sum with it overflows), or a
    /// list of one such number repeated, which RFC 9110 8.6 lets a recipient read as that number.
    /// Anything else, or a second header that differs, makes the response's length invalid.
    private mutating func takeContentLength(_ value: String) {
        let numbers = value.split(separator: ",", omittingEmptySubsequences: false)
            .map(\.withoutOptionalWhitespace)
            .map { text -> Int64? in
                guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
                return Int64(text)
            }
        guard let first = numbers.first ?? nil, numbers.allSatisfy({ $0 == first }),
              declaredLength == nil || declaredLength == first else {
            invalidLength = invalidLength ?? value
            return
        }
        declaredLength = first
    }

    /// `Retry-After` is whole seconds (digits only, RFC 9110) or an HTTP date, counted from
    /// `now`; nil for anything else. A wait longer than `longestRetryAfter` is taken as that: a
    /// server's number must never overflow a clock (`inf`, `1e300` and 19 digits were all sent to
    /// crash it).
    package static func seconds(retryAfter value: String, now: Date) -> Double? {
        if !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return min(Double(value) ?? longestRetryAfter, longestRetryAfter)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { min(max(0, $0.timeIntervalSince(now)), longestRetryAfter) }
    }

    /// `bytes START-END/TOTAL`, where TOTAL may be `*`; nils for anything else.
    package static func parse(contentRange value: String) -> (start: Int64?, end: Int64?, total: Int64?) {
        guard value.lowercased().hasPrefix("bytes ") else { return (nil, nil, nil) }
        let parts = value.dropFirst(6).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let bounds = parts.first?.split(separator: "-", omittingEmptySubsequences: false) ?? []
        // Digits only (bytes N-9223372036854775807 was sent to crash it).
        func number(_ text: Substring) -> Int64? {
            guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
            return Int64(text)
        }
        guard bounds.count == 2, parts.count == 2, let start = number(bounds[0]), let end = number(bounds[1]) else {
            return (nil, nil, nil)
        }
        if parts[1] == "*" { return (start, end, nil) }
        guard let total = number(parts[1]) else { return (nil, nil, nil) }
        return (start, end, total)
    }
}
