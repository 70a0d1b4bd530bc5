import CCurl
import Foundation
import Logging
import VODAppBase
import VODAppModel
import VODAppTransferPolicy

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
        /// Header lines (`Name: value`) sent to each item's own origin only (`--header`).
        public var headers: [String]
        /// A Netscape cookie file whose cookies go to each item's own origin only (`--cookies`).
        public var cookieFile: String?
        /// Where `headers` may go (`--header-host`); empty for every item's own origin.
        public var headerHosts: [HeaderScope] = []
        /// Most transfers in flight to one host (`host:port`), so that the queued items of one
        /// busy or dead host never hold every slot while another host's items wait.
        public var perHost: Int
        /// The most body bytes per second the whole run may receive (`--limit-rate`), however
        /// many transfers share it (`RateGate`); nil for no limit.
        public var rateLimit: Int64?

        public static let defaultJobs = 16
        /// As browsers do: more connections to one server rarely make it faster.
        public static let defaultPerHost = 6

        public init(jobs: Int = Self.defaultJobs, maximumRedirects: Int = 5, userAgent: String = "vodapp",
                    budgetAware: Bool = true, certificateAuthorities: String? = nil,
                    headers: [String] = [], cookieFile: String? = nil, headerHosts: [HeaderScope] = [],
                    perHost: Int = Self.defaultPerHost, rateLimit: Int64? = nil) {
            self.jobs = max(1, jobs)
            self.rateLimit = rateLimit
            self.perHost = max(1, perHost)
            self.maximumRedirects = maximumRedirects
            self.userAgent = userAgent
            self.budgetAware = budgetAware
            self.certificateAuthorities = certificateAuthorities
            self.headers = headers
            self.cookieFile = cookieFile
            self.headerHosts = headerHosts
        }

        /// Whether `--header` may go to `url`: a scope admits it (`HeaderScope`).
        func allowsHeaders(to url: MediaURL) -> Bool {
            headerHosts.admit(url)
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
    ///   - completed: called on the transfer thread with a request and its outcome as soon as its
    ///     whole body is there, so the caller can make it durable and place it while others run.
    ///   - checkpoint: called on the transfer thread once a response's body is going to its file in
    ///     a way a later request could resume (`TransferContext.takeCheckpoint`), at most once per
    ///     response, so the caller can record it before a crash could lose it.
    ///   - progress: called on the transfer thread with the state of the transfers, at most every
    ///     `progressInterval` and once at the end.
    ///   - followUp: hears how each request ended and adds the requests that follow from it to
    ///     this run (an HLS item's playlists, keys and segments); only the outcomes of `requests`
    ///     are returned.
    public func run(_ requests: [TransferRequest], deadline: ContinuousClock.Instant,
                    stop: StopRequest? = nil,
                    completed: (@Sendable (TransferRequest, TransferOutcome) -> Void)? = nil,
                    checkpoint: (@Sendable (_ id: String, TransferOutcome.Partial) -> Void)? = nil,
                    progress: (@Sendable (TransferSnapshot) -> Void)? = nil,
                    followUp: (any TransferFollowUp)? = nil) async -> [TransferOutcome] {
        guard !requests.isEmpty else { return [] }
        // A thread of its own, not a pool's: the loop blocks in curl_multi_poll for the whole
        // delivery, and a listener runs several deliveries at once; on a shared pool of one
        // thread per core they would wait for each other.
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: self.runOnCurrentThread(requests, deadline: deadline, stop: stop,
                                                                       completed: completed, checkpoint: checkpoint,
                                                                       progress: progress, followUp: followUp))
            }
            thread.name = "vodapp-curl"
            thread.start()
        }
    }

    /// When failed transfers are asked for again.
    static let retryPolicy = RetryPolicy()

    /// The longest a connection may take to be accepted (TLS handshake included), at most a
    /// third of the time left: a host that drops SYNs costs this, not the budget.
    static let longestConnect: Duration = .seconds(5)

    /// libcurl's read buffer for a transfer: fewer, larger writes to the file.
    static let bufferSize = 64 * 1024

    /// How often the progress callback hears of the transfers.
    static let progressInterval: Duration = .milliseconds(100)

    private func runOnCurrentThread(_ requests: [TransferRequest], deadline: ContinuousClock.Instant,
                                    stop: StopRequest?,
                                    completed: (@Sendable (TransferRequest, TransferOutcome) -> Void)?,
                                    checkpoint: (@Sendable (String, TransferOutcome.Partial) -> Void)?,
                                    progress: (@Sendable (TransferSnapshot) -> Void)?,
                                    followUp: (any TransferFollowUp)?) -> [TransferOutcome] {
        if let reason = Curl.unavailable {
            return requests.map { TransferOutcome(id: $0.id, result: .failed(reason: reason)) }
        }
        guard let multi = curl_multi_init() else {
            return requests.map { TransferOutcome(id: $0.id, result: .failed(reason: "libcurl could not start")) }
        }
        // The handle as an address, which is Sendable: it is only ever passed back to
        // `curl_multi_wakeup`, and `stop` calls that under its lock, which `unregister` takes
        // before the handle is cleaned up.
        let address = UInt(bitPattern: multi)
        stop?.register(address) {
            if let multi = UnsafeMutableRawPointer(bitPattern: address) { curl_multi_wakeup(multi) }
        }
        // The follow-up may withdraw requests between outcomes (a timer's), and wakes the loop to
        // say so; it lets the handle go under its own lock before the handle is cleaned up.
        followUp?.attach(wake: {
            if let multi = UnsafeMutableRawPointer(bitPattern: address) { curl_multi_wakeup(multi) }
        })
        defer {
            followUp?.attach(wake: nil)
            stop?.unregister(address)
            curl_multi_cleanup(multi)
        }

        var scheduler = TransferScheduler(requests, jobs: configuration.jobs, perHost: configuration.perHost,
                                          budgetAware: configuration.budgetAware, deadline: deadline,
                                          retryPolicy: Self.retryPolicy, followUp: followUp, logger: logger)
        // The libcurl side of the run, by handle: what libcurl's messages and the rate gate name.
        // The scheduler knows transfers by their ids.
        var active: [UnsafeMutableRawPointer: TransferContext] = [:]
        // The few events that name a transfer by id (a follow-up's cancellation, a set-aside)
        // look it up among the at most `jobs` running.
        func transfer(_ id: String) -> TransferContext? { active.values.first { $0.request.id == id } }
        // Body bytes of the transfers that left the run: the link's rate counts them.
        var transferred: Int64 = 0
        /// Takes a transfer out of libcurl, keeping its bytes or not.
        func retire(_ context: TransferContext, keep: Bool) -> TransferOutcome.Partial? {
            active[context.handle] = nil
            curl_multi_remove_handle(multi, context.handle)
            transferred += context.bodyBytes
            let partial = context.settle(keep: keep)
            curl_easy_cleanup(context.handle)
            return partial
        }
        // Transfers the follow-up no longer wants end without an outcome, keeping nothing.
        func abandon(_ ids: Set<String>) {
            for id in ids {
                if let context = transfer(id) { _ = retire(context, keep: false) }
            }
        }
        var snapshot = TransferSnapshot()
        var published = ContinuousClock.now
        defer {
            snapshot.active = []
            snapshot.ended = scheduler.ended
            progress?(snapshot)
        }
        // `rateLimit`, shared by every transfer of the run.
        let gate = configuration.rateLimit.map(RateGate.init(rate:))

        while true {
            // Requests the follow-up gave up between outcomes (a timer's).
            abandon(scheduler.turn(now: .now, withdrawn: followUp?.withdrawn() ?? []))
            while let next = scheduler.nextStart() {
                switch start(next.request, attempt: next.attempt, in: multi, deadline: deadline, gate: gate) {
                case .running(let context):
                    active[context.handle] = context
                case .refused(let outcome):
                    abandon(scheduler.refused(next.request.id, outcome))
                }
            }
            if scheduler.isIdle { break }
            // Held transfers whose turn has come read again.
            gate?.release { active[$0] != nil }

            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                      let context = active.removeValue(forKey: handle) else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                transferred += context.bodyBytes
                let ending = finish(context, code: code)
                curl_easy_cleanup(handle)
                if case .outcome(let outcome, _) = ending, case .completed(let bytes) = outcome.result {
                    completed?(context.request, outcome)
                    snapshot.completedBytes += bytes
                }
                let connection: TransferScheduler.Connection
                if code == CURLE_OPERATION_TIMEDOUT, let why = unreachableReason(context) {
                    connection = .unreachable(why)
                } else if code == CURLE_COULDNT_CONNECT {
                    connection = .refused
                } else {
                    connection = .answered
                }
                abandon(scheduler.ended(context.request.id, ending, connection: connection, now: .now))
            }
            if let checkpoint {
                for context in active.values {
                    if let partial = context.takeCheckpoint() { checkpoint(context.request.id, partial) }
                }
            }
            let inFlight = active.values.sorted { $0.started < $1.started }
            if let progress, published.duration(to: .now) >= Self.progressInterval {
                snapshot.ended = scheduler.ended
                snapshot.active = inFlight.map { TransferSnapshot.Transfer(id: $0.request.id, bytes: $0.fileBytes, total: $0.declaredTotal) }
                progress(snapshot)
                published = .now
            }
            let plan = scheduler.plan(
                inFlight.map { TransferScheduler.InFlight(id: $0.request.id, remaining: $0.remainingBytes, receivingBody: $0.receivingBody) },
                transferred: transferred + inFlight.reduce(0) { $0 + $1.bodyBytes }, now: .now)
            for id in plan.setAside {
                guard let context = transfer(id) else { continue }
                let remaining = context.remainingBytes ?? .max
                scheduler.setAside(id, remaining: remaining, partial: retire(context, keep: true))
            }
            if plan.restored { continue }
            if scheduler.isIdle { break }

            let now = ContinuousClock.now
            if let reason = stop?.reason ?? (now >= deadline ? TransferScheduler.budgetRanOut : nil) {
                scheduler.cut(because: reason, running: cut(Array(active.values), in: multi, because: reason))
                active = [:]
                break
            }
            // A finished transfer freed a slot: start the next one now rather than after a poll.
            if scheduler.canStartNow() { continue }
            // curl_multi_poll also honours libcurl's own timers; the deadline and the next retry
            // bound the wait so that a silent server cannot hold the run past either.
            var wait = scheduler.wait(now: now)
            if let open = gate?.untilOpen { wait = min(wait, open) }
            curl_multi_poll(multi, nil, 0, Int32(clamping: max(0, wait.milliseconds) + 1), nil)
        }
        return scheduler.result
    }
}

extension TransferEngine {

    /// Why a transfer libcurl timed out got no connection, or nil when it had one
    /// (`ResponseValidator.unreachableReason`).
    private func unreachableReason(_ context: TransferContext) -> String? {
        ResponseValidator.unreachableReason(context.request.url, answered: context.responseCode != 0,
                                            resolving: context.curlMessage.hasPrefix("Resolving timed out"),
                                            connected: context.connected, handshaken: context.handshaken,
                                            connectTimeout: context.connectTimeout)
    }

    /// Ends every running transfer as timed out, freeing its handle and keeping what can be
    /// resumed.
    private func cut(_ running: [TransferContext], in multi: UnsafeMutableRawPointer, because reason: String) -> [TransferOutcome] {
        running.map { context in
            curl_multi_remove_handle(multi, context.handle)
            defer { curl_easy_cleanup(context.handle) }
            let partial = context.settle(keep: true)
            let status = context.responseCode
            // "after 1.7 MiB; 2.9 MiB of 8.0 MiB kept to resume", "before the server sent a byte".
            let kept = partial.map { "; " + $0.keptToResume }
                ?? (context.bodyBytes > 0 ? "; nothing could be kept to resume (no validator or no size)" : "")
            let arrived: String
            if context.bodyBytes > 0 {
                arrived = "after " + ByteSize.format(context.bodyBytes) + (context.baseOffset > 0 ? " more" : "")
            } else if context.responseCode > 0 {
                arrived = "before the body's first byte"
            } else {
                arrived = "before the server answered"
            }
            return TransferOutcome(
                id: context.request.id, result: .timedOut(reason: "\(reason) \(arrived)\(kept)"),
                httpStatus: status == 0 ? nil : status, bodyBytesReceived: context.bodyBytes,
                etag: context.etag, lastModified: context.lastModified, partial: partial, attempts: context.attempt)
        }
    }

    private func start(
        _ request: TransferRequest, attempt: Int, in multi: UnsafeMutableRawPointer, deadline: ContinuousClock.Instant,
        gate: RateGate?
    ) -> Start {
        guard let handle = curl_easy_init() else {
            return .refused(TransferOutcome(id: request.id, result: .failed(reason: "libcurl could not create a transfer")))
        }
        let context = TransferContext(request: request, handle: handle, attempt: attempt)
        context.gate = gate
        let opaque = Unmanaged.passUnretained(context).toOpaque()

        vod_easy_setopt_string(handle, CURLOPT_URL, request.url.absoluteString)
        vod_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        // The resolver thread is abandoned at cleanup instead of joined, so a hanging DNS lookup
        // cannot hold the process past its deadline.
        vod_easy_setopt_long(handle, CURLOPT_QUICK_EXIT, 1)
        vod_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        // Redirects are followed by the engine, one request per hop (`finish`).
        vod_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        vod_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        vod_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        if let certificateAuthorities = configuration.certificateAuthorities {
            vod_easy_setopt_string(handle, CURLOPT_CAINFO, certificateAuthorities)
        }
        // Media should arrive as stored: asking for identity keeps servers from compressing it,
        // and setting the option at all makes libcurl decode a body a server encodes anyway, so
        // the file holds the media, not its gzip.
        vod_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "identity")
        var headerLines: [String] = []
        if let resume = request.resume {
            // CURLOPT_RANGE, not CURLOPT_RESUME_FROM: libcurl then takes a 200 (a server that
            // ignores ranges, or a changed resource under If-Range) as the whole body instead of
            // failing, and the write callback starts the file over.
            vod_easy_setopt_string(handle, CURLOPT_RANGE, "\(resume.offset)-")
            headerLines.append("If-Range: \(resume.validator)")
        } else if let slice = request.slice {
            vod_easy_setopt_string(handle, CURLOPT_RANGE, "\(slice.offset)-\(slice.last)")
        }
        // No CURLOPT_MAXFILESIZE: libcurl applies it to any response's Content-Length, so an error
        // page or a redirect longer than a key's 64 bytes would read as "too large". The header
        // callback checks the length of a 2xx response instead (TransferContext).
        if request.carriesCredentials {
            if configuration.allowsHeaders(to: request.url) { headerLines += configuration.headers }
            if let cookieFile = configuration.cookieFile {
                // libcurl's cookie engine reads the file for this transfer and sends the cookies
                // that match this URL; a hop to another origin gets no cookie engine at all.
                vod_easy_setopt_string(handle, CURLOPT_COOKIEFILE, cookieFile)
            }
        }
        for line in headerLines {
            context.headers = curl_slist_append(context.headers, line)
        }
        if context.headers != nil {
            vod_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, context.headers)
        }
        vod_easy_setopt_long(handle, CURLOPT_BUFFERSIZE, gate?.bufferSize ?? Self.bufferSize)
        vod_easy_setopt_string(handle, CURLOPT_USERAGENT, configuration.userAgent)
        vod_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, context.errorBuffer)
        vod_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, transferWriteCallback)
        vod_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, opaque)
        vod_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, transferHeaderCallback)
        vod_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, opaque)
        // A backstop only: the engine loop cuts transfers at the deadline itself.
        let left = ContinuousClock.now.duration(to: deadline)
        vod_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(max(1, left.milliseconds + 1000)))
        // A host that leaves SYNs unanswered would otherwise hold this slot to the deadline.
        // Whole seconds, so that the reason a person reads is a plain number.
        context.connectTimeout = min(Self.longestConnect, .seconds(max(1, (left / 3).milliseconds / 1000)))
        vod_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(context.connectTimeout.milliseconds))

        let added = curl_multi_add_handle(multi, handle)
        guard added == CURLM_OK else {
            curl_easy_cleanup(handle)
            return .refused(TransferOutcome(
                id: request.id,
                result: .failed(reason: "libcurl refused the transfer: \(String(cString: curl_multi_strerror(added)))")))
        }
        logger.debug("transfer started", metadata: ["key": "\(request.id)", "url": "\(request.url.redacted)"])
        return .running(context)
    }

    private typealias Ending = TransferScheduler.Ending

    /// How a transfer ended, as the validator judges what arrived; its bytes kept or let go.
    private func finish(_ context: TransferContext, code: CURLcode) -> Ending {
        let status = context.responseCode
        if (300..<400).contains(status), let target = context.redirectTarget, code == CURLE_OK || code == CURLE_WRITE_ERROR {
            switch ResponseValidator.redirect(context.request, to: target, maximumRedirects: configuration.maximumRedirects) {
            case .success(let next):
                return .redirect(next)
            case .failure(let refusal):
                let partial = context.settle(keep: true)
                return .outcome(TransferOutcome(id: context.request.id, result: .failed(reason: refusal.reason), httpStatus: status,
                                                partial: partial, attempts: context.attempt, isFinal: true,
                                                finalURL: context.request.url),
                                again: .no)
            }
        }
        // A body that arrived whole is judged once more (one shorter than the sniffer's look) and
        // its file closed, before what arrived is judged.
        let bodyEnd = code == CURLE_OK && (200..<300).contains(status) ? context.finishBody() : nil
        let judgement = ResponseValidator.judge(ResponseValidator.Arrival(
            ending: ending(of: context, code: code), message: describe(context, code: code), request: context.request,
            head: context.response, status: status, contentLength: context.contentLength, bodyBytes: context.bodyBytes,
            baseOffset: context.baseOffset, abort: context.abort, bodyEnd: bodyEnd,
            captured: context.isCaptured ? context.captured : nil,
            credentialsHeldBack: !context.request.carriesCredentials && (!configuration.headers.isEmpty || configuration.cookieFile != nil)))
        var partial: TransferOutcome.Partial?
        switch judgement.result {
        case .completed, .captured:
            break
        case .tooLarge:
            // Nothing of a dropped item stays.
            _ = context.settle(keep: false)
        default:
            partial = context.settle(keep: judgement.keep)
        }
        logger.debug("transfer ended", metadata: [
            "key": "\(context.request.id)", "result": "\(judgement.result.logged)", "status": "\(status)",
            "bodyBytes": "\(context.bodyBytes)", "resumedFrom": "\(context.baseOffset)", "attempt": "\(context.attempt)",
        ])
        var outcome = TransferOutcome(
            id: context.request.id, result: judgement.result, httpStatus: status == 0 ? nil : status,
            bodyBytesReceived: context.bodyBytes, etag: context.etag, lastModified: context.lastModified,
            contentType: context.effectiveContentType, partial: partial, attempts: context.attempt,
            retryAfterSeconds: context.retryAfterSeconds, isFinal: judgement.isFinal, finalURL: context.request.url)
        outcome.isDASHManifest = context.verdict == .dashManifest
        return .outcome(outcome, again: judgement.again)
    }

    /// libcurl's result code, in the kinds the validator tells apart.
    private func ending(of context: TransferContext, code: CURLcode) -> ResponseValidator.Arrival.Ending {
        switch code {
        case CURLE_OK: .ok
        case CURLE_WRITE_ERROR: .writeError
        case CURLE_PARTIAL_FILE: .partialFile
        case CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING: .connectionFailed
        case CURLE_OPERATION_TIMEDOUT: .timedOut(unreachable: unreachableReason(context))
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_CERTPROBLEM, CURLE_SSL_PINNEDPUBKEYNOTMATCH: .permanent
        default: .other
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
