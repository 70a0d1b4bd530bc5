import CCurl
import CFileShims
import Foundation

/// The state of one transfer while libcurl runs it: the easy handle, the temporary file, the
/// response's headers and the byte count. It lives on the engine thread only; libcurl reaches it
/// from its callbacks through `CURLOPT_WRITEDATA` and `CURLOPT_HEADERDATA`.
final class TransferContext {
    /// Why a callback stopped the transfer; libcurl only reports CURLE_WRITE_ERROR.
    enum Abort {
        case httpStatus(Int)
        case tooLarge
        case fileError(String)
        case badRange(String)
    }

    let request: TransferRequest
    let handle: UnsafeMutableRawPointer
    /// Which attempt this is, from 1.
    let attempt: Int
    /// When this attempt began: a progress display lists transfers in this order.
    let started = ContinuousClock.now
    /// Body bytes received in this response.
    private(set) var bodyBytes: Int64 = 0
    /// Bytes the file already held when this response's body began: the resume offset on a 206.
    private(set) var baseOffset: Int64 = 0
    /// The Content-Length of the latest response, as its header arrived: libcurl does not report
    /// it when it refuses the body for being too large.
    private(set) var declaredLength: Int64?
    /// The whole resource's size from a 206's `Content-Range: bytes a-b/SIZE`.
    private(set) var rangeStart: Int64?
    private(set) var rangeTotal: Int64?
    private(set) var etag: String?
    private(set) var lastModified: String?
    private(set) var contentType: String?
    /// The response had a Content-Encoding: the file holds decoded bytes, which no byte range of
    /// the encoded representation can extend.
    private(set) var encoded = false
    private(set) var retryAfterSeconds: Double?
    private(set) var abort: Abort?
    /// Whether this response's body began: the file was opened for it (truncated or appended).
    private(set) var bodyBegan = false
    /// Whether the final response's headers are in, with a 2xx status: its length is known, if
    /// it has one, and the body is what remains.
    private(set) var receivingBody = false
    private var statusLine = 0
    private var fd: Int32 = -1
    /// Where the file's writeback was last started: see `write`.
    private var writebackStarted: Int64 = 0
    /// Start writing a body to disk every this many bytes, so the fsync before it is placed has
    /// little left to wait for: the disk works while the network does.
    static let writebackChunk: Int64 = 4 << 20
    /// Extra request headers (`If-Range`); libcurl reads them until the handle is cleaned up.
    var headers: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes a detailed message here; it must live as long as the handle.
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(request: TransferRequest, handle: UnsafeMutableRawPointer, attempt: Int) {
        self.request = request
        self.handle = handle
        self.attempt = attempt
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        closeFile()
        errorBuffer.deallocate()
        curl_slist_free_all(headers)
    }

    var responseCode: Int {
        var code = 0
        _ = vod_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The Content-Length of the final response, when there was one.
    var contentLength: Int64? {
        var length: curl_off_t = -1
        guard vod_easy_getinfo_off(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK,
              length >= 0 else { return declaredLength }
        return Int64(length)
    }

    /// The size of the whole resource, as far as the headers told.
    var declaredTotal: Int64? {
        statusLine == 206 ? rangeTotal : declaredLength
    }

    /// Bytes in the temporary file.
    var fileBytes: Int64 { baseOffset + bodyBytes }

    /// Body bytes still to come, when the response said how many.
    var remainingBytes: Int64? {
        guard receivingBody, let length = declaredLength else { return nil }
        return max(0, length - bodyBytes)
    }


    /// Takes one header line from libcurl, for every response including redirects.
    func header(_ line: UnsafeRawBufferPointer) -> Int {
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            // A new response (after a redirect, or a 100 Continue): forget the last one's headers.
            declaredLength = nil
            rangeStart = nil
            rangeTotal = nil
            etag = nil
            lastModified = nil
            contentType = nil
            encoded = false
            retryAfterSeconds = nil
            receivingBody = false
            statusLine = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else if let colon = text.firstIndex(of: ":") {
            let name = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            switch name {
            case "content-length": declaredLength = Int64(value)
            case "etag": etag = value
            case "last-modified": lastModified = value
            case "content-type": contentType = value
            case "content-encoding": encoded = !value.isEmpty && value.lowercased() != "identity"
            case "retry-after": retryAfterSeconds = Self.seconds(retryAfter: value)
            case "content-range": (rangeStart, rangeTotal) = Self.parse(contentRange: value)
            default: break
            }
        } else if text == "\r\n" || text == "\n", (200..<300).contains(statusLine) {
            receivingBody = true
            if request.resume != nil, let total = declaredTotal, total > request.maximumSize {
                // A resumed request goes without CURLOPT_MAXFILESIZE (a 206's length is only the
                // rest), so the whole size is checked here, before any body byte.
                abort = .tooLarge
                return 0
            }
        }
        return line.count
    }

    var curlMessage: String {
        String(cString: errorBuffer)
    }

    /// Takes body bytes from libcurl. Returns how many were consumed; anything else makes libcurl
    /// stop the transfer with CURLE_WRITE_ERROR, and `abort` says why.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        if !bodyBegan {
            // The first body bytes: only now is it known that the final response is not an error
            // page, which must not be stored as media, and whether it continues the file.
            let status = responseCode
            if !(200..<300).contains(status) && status != 0 {
                abort = .httpStatus(status)
                return 0
            }
            guard beginBody(status: status) else { return 0 }
        }
        // libcurl 7.88 enforces CURLOPT_MAXFILESIZE only against a Content-Length; a chunked or
        // close-delimited body is counted here.
        if fileBytes + Int64(bytes.count) > request.maximumSize {
            bodyBytes += Int64(bytes.count)
            abort = .tooLarge
            return 0
        }
        bodyBytes += Int64(bytes.count)
        guard bytes.count > 0 else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                abort = .fileError(String(cString: strerror(errno)))
                return 0
            }
            offset += written
        }
        if fileBytes - writebackStarted >= Self.writebackChunk {
            // Best effort: where it fails, the fsync at the end does all the work, as before.
            _ = vod_start_writeback(fd, writebackStarted, fileBytes - writebackStarted)
            writebackStarted = fileBytes
        }
        return bytes.count
    }

    /// Opens the temporary file for this response: appended to on a 206 that starts where the
    /// file ends, rewritten from the start on anything else (a server that ignores `Range`, or a
    /// changed resource, answers 200 with the whole body).
    private func beginBody(status: Int) -> Bool {
        bodyBegan = true
        var flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW
        if status == 206, let resume = request.resume {
            guard rangeStart == resume.offset else {
                abort = .badRange("the server resumed at byte \(rangeStart.map(String.init) ?? "?"), not \(resume.offset)")
                return false
            }
            baseOffset = resume.offset
            writebackStarted = resume.offset
            flags |= O_APPEND
        } else {
            flags |= O_TRUNC
        }
        fd = open(request.temporaryPath, flags, 0o644)
        if fd < 0 {
            abort = .fileError("cannot create \(request.temporaryPath): \(String(cString: strerror(errno)))")
            return false
        }
        return true
    }

    /// Closes the temporary file, creating it for an empty body. Making it durable is the
    /// caller's, before placing it: fsyncing here would stall every other transfer on this
    /// thread, and one concurrent round of fsyncs for all files costs less than one at a time.
    /// - Returns: an error text, or nil on success.
    func finishFile() -> String? {
        if !bodyBegan, !beginBody(status: responseCode) {
            if case .fileError(let text)? = abort { return text }
            return "cannot create the temporary file"
        }
        closeFile()
        return nil
    }

    /// Ends a transfer that did not complete: keeps what the file holds when a later request can
    /// resume it, removes it otherwise.
    /// - Parameter keep: false when the bytes must go (too large, a full disk, a bad range).
    /// - Returns: what was kept, if anything.
    func settle(keep: Bool) -> TransferOutcome.Partial? {
        closeFile()
        if !bodyBegan {
            // This response wrote nothing: an earlier partial is untouched and still resumable.
            if keep, let resume = request.resume {
                return TransferOutcome.Partial(bytes: resume.offset, etag: nil, lastModified: nil)
            }
            if !keep { unlink(request.temporaryPath) }
            return nil
        }
        let resumable = keep && fileBytes > 0 && !encoded && TransferRequest.Resume.validator(etag: etag, lastModified: lastModified) != nil
        guard resumable else {
            unlink(request.temporaryPath)
            return nil
        }
        return TransferOutcome.Partial(bytes: fileBytes, etag: etag, lastModified: lastModified)
    }

    /// This transfer's request again, resuming from `partial` when it has bytes and a validator:
    /// the one this response sent, or, when it wrote nothing, the one the request resumed under.
    func request(resuming partial: TransferOutcome.Partial?) -> TransferRequest {
        let resume = partial.flatMap { partial in
            (TransferRequest.Resume.validator(etag: partial.etag, lastModified: partial.lastModified) ?? request.resume?.validator)
                .map { TransferRequest.Resume(offset: partial.bytes, validator: $0) }
        }
        return request.resuming(from: resume)
    }

    private func closeFile() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    /// `Retry-After` is seconds or an HTTP date.
    static func seconds(retryAfter value: String) -> Double? {
        if let seconds = Double(value), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }

    /// `bytes START-END/TOTAL`, where TOTAL may be `*`.
    static func parse(contentRange value: String) -> (Int64?, Int64?) {
        guard value.lowercased().hasPrefix("bytes ") else { return (nil, nil) }
        let spec = value.dropFirst(6)
        let parts = spec.split(separator: "/", maxSplits: 1)
        let start = parts.first?.split(separator: "-").first.flatMap { Int64($0) }
        let total = parts.count == 2 ? Int64(parts[1]) : nil
        return (start, total)
    }
}
