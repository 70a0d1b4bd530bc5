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
        /// Smallest remaining first when the link cannot carry everything before the deadline;
        /// false runs every transfer at full share to the end (`--all-at-once`).
        public var budgetAware: Bool
        /// A PEM file of certificates to trust instead of the system's; nil for the system's.
        public var certificateAuthorities: String?

        public static let defaultJobs = 16

        public init(jobs: Int = Self.defaultJobs, maximumRedirects: Int = 5, userAgent: String = "vodapp",
                    budgetAware: Bool = true, certificateAuthorities: String? = nil) {
            self.jobs = max(1, jobs)
            self.maximumRedirects = maximumRedirects
            self.userAgent = userAgent
            self.budgetAware = budgetAware
            self.certificateAuthorities = certificateAuthorities
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
    /// Completed bodies are left in their temporary files for the caller to place. A transfer cut
    /// by the deadline, a stop request or a dropped connection keeps its bytes there when the
    /// response had validators, so a later request can resume it (`TransferOutcome.partial`);
    /// otherwise its file is removed. Connection failures, resets, 408, 429 and 5xx are retried
    /// with exponential backoff and jitter, or after `Retry-After`, while the deadline allows.
    /// - Parameters:
    ///   - stop: cuts every transfer at once when asked, as the deadline would.
    ///   - completed: called on the transfer thread with a request's temporary path as soon as its
    ///     whole body is there, so the caller can start making it durable while others run.
    ///   - progress: called on the transfer thread with the state of the transfers, at most every
    ///     `progressInterval` and once at the end.
    public func run(_ requests: [TransferRequest], deadline: ContinuousClock.Instant,
                    stop: StopRequest? = nil,
                    completed: (@Sendable (_ temporaryPath: String) -> Void)? = nil,
                    progress: (@Sendable (TransferSnapshot) -> Void)? = nil) async -> [TransferOutcome] {
        guard !requests.isEmpty else { return [] }
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: self.runOnCurrentThread(requests, deadline: deadline, stop: stop,
                                                                       completed: completed, progress: progress))
            }
            thread.name = "vodapp-curl"
            thread.start()
        }
    }

    /// The most attempts for one request, the first included.
    static let maximumAttempts = 6

    /// How often the progress callback hears of the transfers.
    static let progressInterval: Duration = .milliseconds(100)

    private func runOnCurrentThread(_ requests: [TransferRequest], deadline: ContinuousClock.Instant,
                                    stop: StopRequest?,
                                    completed: (@Sendable (String) -> Void)?,
                                    progress: (@Sendable (TransferSnapshot) -> Void)?) -> [TransferOutcome] {
        Curl.initialize()
        guard let multi = curl_multi_init() else {
            return requests.map { TransferOutcome(id: $0.id, result: .failed(reason: "libcurl could not start")) }
        }
        stop?.register(multi)
        defer {
            stop?.unregister(multi)
            curl_multi_cleanup(multi)
        }

        var outcomes: [String: TransferOutcome] = [:]
        var waiting = requests.map { (request: $0, attempt: 1) }[...]
        var delayed: [Retry] = []
        var active: [UnsafeMutableRawPointer: TransferContext] = [:]
        var planner = BandwidthPlanner(enabled: configuration.budgetAware)
        var snapshot = TransferSnapshot()
        var published = ContinuousClock.now
        defer {
            snapshot.active = []
            snapshot.ended = outcomes.count
            progress?(snapshot)
        }
        // Transfers set aside by the planner, smallest remaining first.
        var aside: [(request: TransferRequest, attempt: Int, remaining: Int64, partial: TransferOutcome.Partial?)] = []

        while true {
            let now = ContinuousClock.now
            // Retries whose time has come go to the front of the line.
            for retry in delayed where retry.at <= now {
                waiting.insert((retry.request, retry.attempt), at: waiting.startIndex)
            }
            delayed.removeAll { $0.at <= now }
            while active.count < configuration.jobs, let next = waiting.popFirst() {
                switch start(next.request, attempt: next.attempt, in: multi, deadline: deadline) {
                case .running(let context):
                    active[context.handle] = context
                case .refused(let outcome):
                    outcomes[next.request.id] = outcome
                }
            }
            if active.isEmpty && waiting.isEmpty && delayed.isEmpty && aside.isEmpty { break }

            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE,
                      let handle = message.pointee.easy_handle,
                      let context = active.removeValue(forKey: handle) else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                planner.ended(context)
                let outcome = finish(context, code: code)
                if case .completed(let bytes) = outcome.result {
                    completed?(context.request.temporaryPath)
                    snapshot.completedBytes += bytes
                }
                if let retry = retry(after: outcome, of: context, code: code, deadline: deadline) {
                    logger.info("retrying", metadata: ["key": "\(context.request.id)", "attempt": "\(retry.attempt)",
                                                       "after": "\(retry.delay)", "because": "\(outcome.result)"])
                    delayed.append(retry)
                }
                outcomes[context.request.id] = outcome
                curl_easy_cleanup(handle)
            }
            if let progress, published.duration(to: .now) >= Self.progressInterval {
                snapshot.ended = outcomes.count
                snapshot.active = active.values.sorted { $0.started < $1.started }
                    .map { TransferSnapshot.Transfer(id: $0.request.id, bytes: $0.fileBytes, total: $0.declaredTotal) }
                progress(snapshot)
                published = .now
            }
            switch planner.plan(Array(active.values), asideRemaining: aside.map(\.remaining), deadline: deadline) {
            case .keep:
                break
            case .setAside(let contexts):
                for context in contexts {
                    active.removeValue(forKey: context.handle)
                    curl_multi_remove_handle(multi, context.handle)
                    planner.ended(context)
                    let remaining = context.remainingBytes ?? .max
                    let partial = context.settle(keep: true)
                    aside.append((context.request(resuming: partial), context.attempt, remaining, partial))
                    logger.debug("set aside", metadata: ["key": "\(context.request.id)", "remaining": "\(remaining)"])
                    curl_easy_cleanup(context.handle)
                }
                aside.sort { $0.remaining < $1.remaining }
            case .restore(let count):
                for entry in aside.prefix(count).reversed() {
                    waiting.insert((entry.request, entry.attempt), at: waiting.startIndex)
                }
                aside.removeFirst(min(count, aside.count))
                continue
            }
            if active.isEmpty && waiting.isEmpty && delayed.isEmpty && aside.isEmpty { break }

            let remaining = ContinuousClock.now.duration(to: deadline)
            if let reason = stop?.reason ?? (remaining <= .zero ? "the budget ran out" : nil) {
                for outcome in cut(active: active, waiting: waiting, in: multi, because: reason) {
                    outcomes[outcome.id] = outcome
                }
                for entry in aside {
                    let kept = entry.partial.map { "; \($0.bytes) bytes are kept to resume" } ?? ""
                    outcomes[entry.request.id] = TransferOutcome(
                        id: entry.request.id, result: .timedOut(reason: "\(reason) while it waited for bandwidth\(kept)"),
                        httpStatus: 200, partial: entry.partial, attempts: entry.attempt)
                }
                break
            }
            // A finished transfer freed a slot: start the next one now rather than after a poll.
            if active.count < configuration.jobs && !waiting.isEmpty { continue }
            // curl_multi_poll also honours libcurl's own timers; the deadline and the next retry
            // bound the wait so that a silent server cannot hold the run past either.
            var wait = remaining
            if let next = delayed.map(\.at).min() { wait = min(wait, ContinuousClock.now.duration(to: next)) }
            if configuration.budgetAware { wait = min(wait, BandwidthPlanner.interval) }
            curl_multi_poll(multi, nil, 0, Int32(clamping: max(0, wait.milliseconds) + 1), nil)
        }
        return requests.compactMap { outcomes[$0.id] }
    }

    /// A request to try again later.
    private struct Retry {
        let request: TransferRequest
        let attempt: Int
        let at: ContinuousClock.Instant
        let delay: Duration
    }

    /// Whether, and when, to try a failed transfer again: connection failures and resets, 408,
    /// 429 and 5xx are worth another attempt; other answers are final. Never past the deadline.
    private func retry(after outcome: TransferOutcome, of context: TransferContext, code: CURLcode,
                       deadline: ContinuousClock.Instant) -> Retry? {
        guard case .failed = outcome.result, context.attempt < Self.maximumAttempts else { return nil }
        let retryableCodes = [CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE]
        let status = outcome.httpStatus ?? 0
        let retryableStatus = status == 408 || status == 429 || (500...599).contains(status)
        guard retryableCodes.contains(code) || retryableStatus else { return nil }
        let delay: Duration
        if let seconds = outcome.retryAfterSeconds {
            delay = .milliseconds(Int64(seconds * 1000))
        } else {
            // 0.25 s, 0.5 s, 1 s, …, each within ±25 %, so that clients cut by one failure do not
            // come back in step.
            let base = 0.25 * Double(1 << (context.attempt - 1))
            delay = .milliseconds(Int64(base * Double.random(in: 0.75...1.25) * 1000))
        }
        let at = ContinuousClock.now + delay
        guard at < deadline else { return nil }
        return Retry(request: context.request(resuming: outcome.partial), attempt: context.attempt + 1, at: at, delay: delay)
    }

    /// Ends every unfinished transfer as timed out, freeing its handle and keeping what can be
    /// resumed.
    private func cut(
        active: [UnsafeMutableRawPointer: TransferContext], waiting: ArraySlice<(request: TransferRequest, attempt: Int)>,
        in multi: UnsafeMutableRawPointer, because reason: String
    ) -> [TransferOutcome] {
        var outcomes: [TransferOutcome] = []
        for (handle, context) in active {
            curl_multi_remove_handle(multi, handle)
            let partial = context.settle(keep: true)
            let status = context.responseCode
            let kept = partial.map { "; \($0.bytes) bytes are kept to resume" } ?? ""
            outcomes.append(TransferOutcome(
                id: context.request.id, result: .timedOut(reason: "\(reason) after \(context.bodyBytes) bytes\(kept)"),
                httpStatus: status == 0 ? nil : status, bodyBytesReceived: context.bodyBytes,
                etag: context.etag, lastModified: context.lastModified, partial: partial, attempts: context.attempt))
            curl_easy_cleanup(handle)
        }
        for next in waiting {
            let partial = next.request.resume.map { TransferOutcome.Partial(bytes: $0.offset, etag: nil, lastModified: nil) }
            outcomes.append(TransferOutcome(
                id: next.request.id, result: .timedOut(reason: "\(reason) before the transfer could start"),
                partial: partial, attempts: next.attempt - 1))
        }
        // A transfer waiting to be retried keeps the outcome of its last attempt: why it failed
        // says more than that the budget ran out meanwhile.
        return outcomes
    }

    private func start(
        _ request: TransferRequest, attempt: Int, in multi: UnsafeMutableRawPointer, deadline: ContinuousClock.Instant
    ) -> Start {
        guard let handle = curl_easy_init() else {
            return .refused(TransferOutcome(id: request.id, result: .failed(reason: "libcurl could not create a transfer")))
        }
        let context = TransferContext(request: request, handle: handle, attempt: attempt)
        let opaque = Unmanaged.passUnretained(context).toOpaque()

        vod_easy_setopt_string(handle, CURLOPT_URL, request.url.absoluteString)
        vod_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        // The resolver thread is abandoned at cleanup instead of joined, so a hanging DNS lookup
        // cannot hold the process past its deadline.
        vod_easy_setopt_long(handle, CURLOPT_QUICK_EXIT, 1)
        vod_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        // What began over https stays on https: a redirect to http would hand the body to anyone on
        // the path.
        vod_easy_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, request.url.isHTTPS ? "https" : "http,https")
        vod_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        vod_easy_setopt_long(handle, CURLOPT_MAXREDIRS, configuration.maximumRedirects)
        vod_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        vod_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        if let certificateAuthorities = configuration.certificateAuthorities {
            vod_easy_setopt_string(handle, CURLOPT_CAINFO, certificateAuthorities)
        }
        // Media should arrive as stored: asking for identity keeps servers from compressing it,
        // and setting the option at all makes libcurl decode a body a server encodes anyway, so
        // the file holds the media, not its gzip.
        vod_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "identity")
        if let resume = request.resume {
            // CURLOPT_RANGE, not CURLOPT_RESUME_FROM: libcurl then takes a 200 (a server that
            // ignores ranges, or a changed resource under If-Range) as the whole body instead of
            // failing, and the write callback starts the file over.
            vod_easy_setopt_string(handle, CURLOPT_RANGE, "\(resume.offset)-")
            context.headers = curl_slist_append(nil, "If-Range: \(resume.validator)")
            vod_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, context.headers)
        } else {
            // Rejects a too-large Content-Length before any body byte is delivered.
            vod_easy_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maximumSize))
        }
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
        var partial: TransferOutcome.Partial?
        switch (result, context.abort) {
        case (.completed, _):
            break
        case (.tooLarge, _), (_, .fileError?), (_, .badRange?):
            // Nothing of a dropped item stays; a full disk needs its space back; a server that
            // resumed at the wrong byte cannot be trusted with this file.
            _ = context.settle(keep: false)
        default:
            partial = context.settle(keep: true)
        }
        logger.debug("transfer ended", metadata: [
            "key": "\(context.request.id)", "result": "\(result)", "status": "\(status)",
            "bodyBytes": "\(context.bodyBytes)", "resumedFrom": "\(context.baseOffset)", "attempt": "\(context.attempt)",
        ])
        return TransferOutcome(
            id: context.request.id, result: result, httpStatus: status == 0 ? nil : status,
            bodyBytesReceived: context.bodyBytes, etag: context.etag, lastModified: context.lastModified,
            contentType: context.contentType, partial: partial, attempts: context.attempt, retryAfterSeconds: context.retryAfterSeconds)
    }

    private func classify(_ context: TransferContext, code: CURLcode, status: Int) -> TransferOutcome.Result {
        let limit = configuration.maximumRedirects
        switch code {
        case CURLE_OK:
            guard (200..<300).contains(status) else { return .failed(reason: "the server answered HTTP \(status)") }
            // An encoded body's Content-Length counts the encoded bytes, not the ones written.
            if let length = context.contentLength, length != context.bodyBytes, !context.encoded {
                return .failed(reason: "the body has \(context.bodyBytes) bytes, Content-Length said \(length)")
            }
            if let error = context.finishFile() {
                return .failed(reason: "cannot write the file: \(error)")
            }
            return .completed(bytes: context.fileBytes)
        case CURLE_WRITE_ERROR:
            switch context.abort {
            case .httpStatus(let status)?:
                return .failed(reason: "the server answered HTTP \(status)")
            case .tooLarge?:
                return .tooLarge(declaredSize: context.declaredTotal ?? context.contentLength)
            case .fileError(let text)?:
                return .failed(reason: "cannot write the file: \(text)")
            case .badRange(let text)?:
                return .failed(reason: text)
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
        case CURLE_UNSUPPORTED_PROTOCOL where context.request.url.isHTTPS:
            return .failed(reason: "redirected from https to a URL that is not https (\(describe(context, code: code)))")
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
