import CCurl
import Foundation
import VODAppCore

/// One POST through libcurl's easy interface, on a thread of its own so no async caller blocks.
///
/// Redirects are not followed: a push endpoint that redirects a POST is misconfigured, and
/// following it would send the signed body somewhere the user did not name.
struct HTTPPost: Sendable {
    struct Answer: Sendable {
        let status: Int
        let body: String
    }

    /// An answer larger than this is cut: it is a report or an error, not media.
    static let maximumAnswer = 4 << 20

    let url: URL
    let body: Data
    let headers: [String]
    let timeout: Duration

    func perform() async throws(PushError) -> Answer {
        let result = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: self.performBlocking()) }
            thread.name = "vodapp-push-post"
            thread.start()
        }
        return try result.get()
    }

    private func performBlocking() -> Result<Answer, PushError> {
        guard let handle = curl_easy_init() else { return .failure(.cannotSend("libcurl could not start a transfer")) }
        defer { curl_easy_cleanup(handle) }
        // "Expect:" with no value stops libcurl from waiting for a 100 Continue on large bodies.
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers + ["Expect:"] {
            list = curl_slist_append(list, header)
        }
        defer { curl_slist_free_all(list) }
        let sink = AnswerSink()
        let opaque = Unmanaged.passUnretained(sink).toOpaque()

        vod_easy_setopt_string(handle, CURLOPT_URL, url.absoluteString)
        vod_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        vod_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        vod_easy_setopt_long(handle, CURLOPT_POST, 1)
        vod_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
        body.withUnsafeBytes { bytes in
            // COPYPOSTFIELDS copies the bytes now, so the buffer need not outlive this call.
            _ = vod_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
        }
        vod_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
        vod_easy_setopt_string(handle, CURLOPT_USERAGENT, "vodapp-push/0.1 libcurl/\(Curl.version)")
        vod_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(timeout.milliseconds))
        vod_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, 10_000)
        vod_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, answerWriteCallback)
        vod_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, opaque)

        let code = withExtendedLifetime(sink) { curl_easy_perform(handle) }
        guard code == CURLE_OK else {
            return .failure(.cannotSend("cannot POST: \(String(cString: curl_easy_strerror(code)))"))
        }
        var status = 0
        vod_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(Answer(status: status, body: String(decoding: sink.data, as: UTF8.self)))
    }
}

/// The answer's bytes, filled by libcurl's write callback on the transfer's thread only.
private final class AnswerSink {
    var data = Data()
}

private let answerWriteCallback: curl_write_callback = { bytes, size, count, userdata in
    guard let bytes, let userdata else { return 0 }
    let sink = Unmanaged<AnswerSink>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    let room = max(0, HTTPPost.maximumAnswer - sink.data.count)
    sink.data.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: min(length, room))
    return length
}
