import CCurl
import Foundation
import Logging

/// Runs a batch of transfers through one libcurl multi handle, under one deadline.
///
/// A dedicated thread owns the multi handle and every easy handle from creation to cleanup, so no
/// curl handle is ever touched from two threads. At most `jobs` transfers are in flight; the rest
/// wait their turn. When the deadline comes, every unfinished transfer is cut and reported as
/// timed out, whatever state it is in (resolving, connecting, waiting for headers, mid-body).
public struct TransferEngine: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Most transfers in flight at once.
        public var jobs: Int
        public var maximumRedirects: Int
        public var userAgent: String

        public static let defaultJobs = 16

        public init(jobs: Int = Self.defaultJobs, maximumRedirects: Int = 5, userAgent: String = "vodapp") {
            self.jobs = max(1, jobs)
            self.maximumRedirects = maximumRedirects
            self.userAgent = userAgent
        }
    }

    public let configuration: Configuration
    private let logger: Logger

    public init(configuration: Configuration = Configuration(), logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Fetches every request, returning one outcome per request, in the order given.
    ///
    /// Temporary files of transfers that did not complete are removed; completed ones are left for
    /// the caller to place.
    public func run(_ requests: [TransferRequest], deadline: ContinuousClock.Instant) async -> [TransferOutcome] {
        guard !requests.isEmpty else { return [] }
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: self.runOnCurrentThread(requests, deadline: deadline))
            }
            thread.name = "vodapp-curl"
            thread.start()
        }
    }

    private func runOnCurrentThread(_ requests: [TransferRequest], deadline: ContinuousClock.Instant) -> [TransferOutcome] {
        Curl.initialize()
        guard let multi = curl_multi_init() else {
            return requests.map { TransferOutcome(id: $0.id, result: .failed(reason: "libcurl could not start")) }
        }
        defer { curl_multi_cleanup(multi) }

        var outcomes: [String: TransferOutcome] = [:]
        var waiting = requests[...]
        var active: [UnsafeMutableRawPointer: TransferContext] = [:]

        while true {
            while active.count < configuration.jobs, let request = waiting.popFirst() {
                switch start(request, in: multi, deadline: deadline) {
                case .running(let context):
                    active[context.handle] = context
                case .refused(let outcome):
                    outcomes[request.id] = outcome
                }
            }
            if active.isEmpty && waiting.isEmpty { break }

            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE,
                      let handle = message.pointee.easy_handle,
                      let context = active.removeValue(forKey: handle) else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                outcomes[context.request.id] = finish(context, code: code)
                curl_easy_cleanup(handle)
            }
            if active.isEmpty && waiting.isEmpty { break }

            let remaining = ContinuousClock.now.duration(to: deadline)
            // A finished transfer freed a slot: start the next one now rather than after a poll.
            if remaining > .zero && active.count < configuration.jobs && !waiting.isEmpty { continue }
            if remaining <= .zero {
                for outcome in cutAtDeadline(active: active, waiting: waiting, in: multi) {
                    outcomes[outcome.id] = outcome
                }
                break
            }
            // curl_multi_poll also honours libcurl's own timers; the deadline bounds the wait so
            // that a silent server cannot hold the run past it.
            curl_multi_poll(multi, nil, 0, Int32(clamping: remaining.milliseconds + 1), nil)
        }
        return requests.compactMap { outcomes[$0.id] }
    }

    /// Ends every unfinished transfer as timed out, freeing its handle and its temporary file.
    private func cutAtDeadline(
        active: [UnsafeMutableRawPointer: TransferContext], waiting: ArraySlice<TransferRequest>, in multi: UnsafeMutableRawPointer
    ) -> [TransferOutcome] {
        var outcomes: [TransferOutcome] = []
        for (handle, context) in active {
            curl_multi_remove_handle(multi, handle)
            context.discardFile()
            let status = context.responseCode
            outcomes.append(TransferOutcome(
                id: context.request.id, result: .timedOut(reason: "the budget ran out after \(context.bodyBytes) bytes"),
                httpStatus: status == 0 ? nil : status, bodyBytesReceived: context.bodyBytes))
            curl_easy_cleanup(handle)
        }
        for request in waiting {
            outcomes.append(TransferOutcome(
                id: request.id, result: .timedOut(reason: "the budget ran out before the transfer could start")))
        }
        return outcomes
    }

    private func start(
        _ request: TransferRequest, in multi: UnsafeMutableRawPointer, deadline: ContinuousClock.Instant
    ) -> Start {
        guard let handle = curl_easy_init() else {
            return .refused(TransferOutcome(id: request.id, result: .failed(reason: "libcurl could not create a transfer")))
        }
        let context = TransferContext(request: request, handle: handle)
        let opaque = Unmanaged.passUnretained(context).toOpaque()

        vod_easy_setopt_string(handle, CURLOPT_URL, request.url.absoluteString)
        vod_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        // The resolver thread is abandoned at cleanup instead of joined, so a hanging DNS lookup
        // cannot hold the process past its deadline.
        vod_easy_setopt_long(handle, CURLOPT_QUICK_EXIT, 1)
        vod_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        vod_easy_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        vod_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        vod_easy_setopt_long(handle, CURLOPT_MAXREDIRS, configuration.maximumRedirects)
        vod_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        vod_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        // Rejects a too-large Content-Length before any body byte is delivered.
        vod_easy_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maximumSize))
        vod_easy_setopt_long(handle, CURLOPT_BUFFERSIZE, 64 * 1024)
        vod_easy_setopt_string(handle, CURLOPT_USERAGENT, configuration.userAgent)
        vod_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, context.errorBuffer)
        vod_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, transferWriteCallback)
        vod_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, opaque)
        vod_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, transferHeaderCallback)
        vod_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, opaque)
        // A backstop only: the engine loop cuts transfers at the deadline itself.
        let remaining = max(1, ContinuousClock.now.duration(to: deadline).milliseconds + 1000)
        vod_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(remaining))

        let added = curl_multi_add_handle(multi, handle)
        guard added == CURLM_OK else {
            curl_easy_cleanup(handle)
            return .refused(TransferOutcome(
                id: request.id,
                result: .failed(reason: "libcurl refused the transfer: \(String(cString: curl_multi_strerror(added)))")))
        }
        logger.debug("transfer started", metadata: ["key": "\(request.id)", "url": "\(request.url.absoluteString)"])
        return .running(context)
    }

    private func finish(_ context: TransferContext, code: CURLcode) -> TransferOutcome {
        let status = context.responseCode
        let result = classify(context, code: code, status: status)
        switch result {
        case .completed:
            break
        default:
            context.discardFile()
        }
        logger.debug("transfer ended", metadata: [
            "key": "\(context.request.id)", "result": "\(result)", "status": "\(status)",
            "bodyBytes": "\(context.bodyBytes)",
        ])
        return TransferOutcome(
            id: context.request.id, result: result, httpStatus: status == 0 ? nil : status,
            bodyBytesReceived: context.bodyBytes)
    }

    private func classify(_ context: TransferContext, code: CURLcode, status: Int) -> TransferOutcome.Result {
        let limit = configuration.maximumRedirects
        switch code {
        case CURLE_OK:
            guard (200..<300).contains(status) else { return .failed(reason: "the server answered HTTP \(status)") }
            if let length = context.contentLength, length != context.bodyBytes {
                return .failed(reason: "the body has \(context.bodyBytes) bytes, Content-Length said \(length)")
            }
            if let error = context.finishFile() {
                return .failed(reason: "cannot write the file: \(error)")
            }
            return .completed(bytes: context.bodyBytes)
        case CURLE_WRITE_ERROR:
            switch context.abort {
            case .httpStatus(let status)?:
                return .failed(reason: "the server answered HTTP \(status)")
            case .tooLarge?:
                return .tooLarge(declaredSize: context.contentLength)
            case .fileError(let text)?:
                return .failed(reason: "cannot write the file: \(text)")
            case nil:
                return .failed(reason: describe(context, code: code))
            }
        case CURLE_FILESIZE_EXCEEDED:
            return .tooLarge(declaredSize: context.contentLength)
        case CURLE_PARTIAL_FILE:
            let expected = context.contentLength.map { " of \($0)" } ?? ""
            return .failed(reason: "the connection closed after \(context.bodyBytes)\(expected) bytes")
        case CURLE_TOO_MANY_REDIRECTS:
            return .failed(reason: "more than \(limit) redirects")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .failed(reason: "redirected to a URL that is not http or https (\(describe(context, code: code)))")
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(reason: describe(context, code: code))
        default:
            return .failed(reason: describe(context, code: code))
        }
    }

    private func describe(_ context: TransferContext, code: CURLcode) -> String {
        let detail = context.curlMessage
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }
}

/// A transfer handed to libcurl, or the outcome of one libcurl would not take.
private enum Start {
    case running(TransferContext)
    case refused(TransferOutcome)
}

/// libcurl's write callback: a C function pointer, so it captures nothing and finds its transfer
/// through `CURLOPT_WRITEDATA`.
private let transferWriteCallback: curl_write_callback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
    return context.write(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// libcurl's header callback, found the same way.
private let transferHeaderCallback: curl_write_callback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(userdata).takeUnretainedValue()
    return context.header(UnsafeRawBufferPointer(start: data, count: size * count))
}
