import CCurl
import Foundation

/// The state of one transfer while libcurl runs it: the easy handle, the temporary file and the
/// byte count. It lives on the engine thread only; libcurl reaches it from the write callback
/// through `CURLOPT_WRITEDATA`.
final class TransferContext {
    /// Why the write callback stopped the transfer; libcurl only reports CURLE_WRITE_ERROR.
    enum Abort {
        case httpStatus(Int)
        case tooLarge
        case fileError(String)
    }

    let request: TransferRequest
    let handle: UnsafeMutableRawPointer
    private(set) var bodyBytes: Int64 = 0
    /// The Content-Length of the latest response, as its header arrived: libcurl does not report
    /// it when it refuses the body for being too large.
    private(set) var declaredLength: Int64?
    private(set) var abort: Abort?
    private var fd: Int32 = -1
    /// libcurl writes a detailed message here; it must live as long as the handle.
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(request: TransferRequest, handle: UnsafeMutableRawPointer) {
        self.request = request
        self.handle = handle
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        closeFile()
        errorBuffer.deallocate()
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

    /// Takes one header line from libcurl, for every response including redirects.
    func header(_ line: UnsafeRawBufferPointer) -> Int {
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            declaredLength = nil
        } else if let colon = text.firstIndex(of: ":"),
                  text[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
            declaredLength = Int64(text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return line.count
    }

    var curlMessage: String {
        String(cString: errorBuffer)
    }

    /// Takes body bytes from libcurl. Returns how many were consumed; anything else makes libcurl
    /// stop the transfer with CURLE_WRITE_ERROR, and `abort` says why.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        if bodyBytes == 0 && fd < 0 {
            // The first body bytes: only now is it known that the final response is not an error
            // page, which must not be stored as media.
            let status = responseCode
            if !(200..<300).contains(status) && status != 0 {
                abort = .httpStatus(status)
                return 0
            }
        }
        // libcurl 7.88 enforces CURLOPT_MAXFILESIZE only against a Content-Length; a chunked or
        // close-delimited body is counted here.
        if bodyBytes + Int64(bytes.count) > request.maximumSize {
            bodyBytes += Int64(bytes.count)
            abort = .tooLarge
            return 0
        }
        bodyBytes += Int64(bytes.count)
        guard bytes.count > 0 else { return 0 }
        if fd < 0, !openFile() { return 0 }
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
        return bytes.count
    }

    /// Makes the temporary file durable, creating it for an empty body, and closes it.
    /// - Returns: an error text, or nil on success.
    func finishFile() -> String? {
        if fd < 0, !openFile() {
            if case .fileError(let text)? = abort { return text }
            return "cannot create the temporary file"
        }
        // One fsync per file, before the rename makes it visible: a crash must not leave a
        // complete-looking name over a file whose blocks never reached the disk.
        let synced = fsync(fd) == 0 ? nil : String(cString: strerror(errno))
        closeFile()
        return synced
    }

    /// Closes and removes the temporary file: nothing of an unfinished transfer is kept.
    func discardFile() {
        closeFile()
        unlink(request.temporaryPath)
    }

    private func openFile() -> Bool {
        fd = open(request.temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 {
            abort = .fileError("cannot create \(request.temporaryPath): \(String(cString: strerror(errno)))")
            return false
        }
        return true
    }

    private func closeFile() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }
}
