import CCurl
import Foundation
import NIOPosix
import VODAppTransferPolicy

/// One small HTTP exchange through libcurl's easy interface, on NIO's blocking pool so no async
/// caller blocks: a push's POST, or a poll's GET. Media goes through `TransferEngine` instead.
public struct SingleRequest: Sendable {
    public enum Method: Sendable {
        case get
        case post(Data)
    }

    public struct Answer: Sendable {
        public let status: Int
        public let body: Data
        /// The URL that answered: the last hop of any redirects.
        public var finalURL: String? = nil

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case transport(String)
        case answerTooLarge(limit: Int)

        public var description: String {
            switch self {
            case .transport(let reason): reason
            case .answerTooLarge(let limit): "the answer is larger than \(limit) bytes"
            }
        }
    }

    public let url: URL
    public let method: Method
    public let headers: [String]
    /// Sent with libcurl's bearer authentication, which, unlike a hand-set header, libcurl never
    /// forwards to another host or port when following a redirect.
    public let bearerToken: String?
    /// Follow at most 5 redirects (a poll); a push's POST follows none, so a signed body never
    /// goes somewhere the user did not name.
    public let followRedirects: Bool
    public let timeout: Duration
    /// A longer answer is an error: answers here are payloads, reports or error texts, not media.
    public let maximumAnswer: Int

    public init(url: URL, method: Method, headers: [String] = [], bearerToken: String? = nil,
                followRedirects: Bool = false, timeout: Duration, maximumAnswer: Int = 4 << 20) {
        self.url = url
        self.method = method
        self.headers = headers
        self.bearerToken = bearerToken
        self.followRedirects = followRedirects
        self.timeout = timeout
        self.maximumAnswer = maximumAnswer
    }

    public func perform() async throws(Failure) -> Answer {
        // One blocking libcurl call, on NIO's pool for blocking work. The pool only refuses work
        // once it is shut down, which the process-wide one never is.
        let result = try? await NIOThreadPool.singleton.runIfActive { self.performBlocking() }
        return try (result ?? .failure(.transport("no thread to run the request on"))).get()
    }

    private func performBlocking() -> Result<Answer, Failure> {
        if let reason = Curl.unavailable { return .failure(.transport(reason)) }
        guard let handle = curl_easy_init() else { return .failure(.transport("libcurl could not start a transfer")) }
        defer { curl_easy_cleanup(handle) }
        // "Expect:" with no value stops libcurl from waiting for a 100 Continue on large bodies.
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers + ["Expect:"] {
            list = curl_slist_append(list, header)
        }
        defer { curl_slist_free_all(list) }
        let sink = AnswerSink(limit: maximumAnswer)
        let opaque = Unmanaged.passUnretained(sink).toOpaque()

        vod_easy_setopt_string(handle, CURLOPT_URL, url.absoluteString)
        vod_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        vod_easy_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        vod_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        if followRedirects {
            vod_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
            vod_easy_setopt_long(handle, CURLOPT_MAXREDIRS, 5)
        }
        if let bearerToken {
            vod_easy_setopt_long(handle, CURLOPT_HTTPAUTH, vod_curlauth_bearer())
            vod_easy_setopt_string(handle, CURLOPT_XOAUTH2_BEARER, bearerToken)
        }
        if case .post(let body) = method {
            vod_easy_setopt_long(handle, CURLOPT_POST, 1)
            vod_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies the bytes now, so the buffer need not outlive this call.
                _ = vod_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
        }
        vod_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
        vod_easy_setopt_string(handle, CURLOPT_USERAGENT, "vodapp/0.1 libcurl/\(Curl.version)")
        vod_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(max(1, timeout.milliseconds)))
        vod_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(max(1, min(10_000, timeout.milliseconds))))
        vod_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, answerWriteCallback)
        vod_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, opaque)

        let code = withExtendedLifetime(sink) { curl_easy_perform(handle) }
        if sink.overflowed { return .failure(.answerTooLarge(limit: maximumAnswer)) }
        guard code == CURLE_OK else {
            return .failure(.transport(String(cString: curl_easy_strerror(code))))
        }
        var status = 0
        vod_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        let finalURL = vod_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK ? effective.map { String(cString: $0) } : nil
        return .success(Answer(status: status, body: sink.data, finalURL: finalURL))
    }
}

/// The answer's bytes, filled by libcurl's write callback on the request's thread only.
private final class AnswerSink {
    let limit: Int
    var data = Data()
    var overflowed = false

    init(limit: Int) {
        self.limit = limit
    }
}

private let answerWriteCallback: curl_write_callback = { bytes, size, count, userdata in
    guard let bytes, let userdata else { return 0 }
    let sink = Unmanaged<AnswerSink>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    guard sink.data.count + length <= sink.limit else {
        sink.overflowed = true
        return 0
    }
    sink.data.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length)
    return length
}
