import CCurl
import CFileShims
import Foundation
import SystemPackage
import VODAppBase
import VODAppTransferPolicy

/// The state of one transfer while libcurl runs it: the easy handle, the temporary file, the
/// response's headers and the byte count. It lives on the engine thread only; libcurl reaches it
/// from its callbacks through `CURLOPT_WRITEDATA` and `CURLOPT_HEADERDATA`.
final class TransferContext {
    typealias Abort = TransferAbort

    /// Where this response's body goes.
    private enum Sink {
        /// The first bytes are held until `MediaSniffer` can tell what the body is.
        case deciding
        case file
        case memory
    }

    let request: TransferRequest
    let handle: UnsafeMutableRawPointer
    /// Which attempt this is, from 1.
    let attempt: Int
    /// When this attempt began: a progress display lists transfers in this order.
    let started = ContinuousClock.now
    /// Body bytes received in this response.
    private(set) var bodyBytes: Int64 = 0
    /// Bytes taken from `request.allowance` by this response.
    private var claimed: Int64 = 0
    /// Bytes taken from `request.room` by this response.
    private var roomClaimed: Int64 = 0
    /// Where the blocks reserved for this response's body end (`reserve`), 0 when none were.
    private var reservedEnd: Int64 = 0
    /// `fileBytes` when the disk's free space was last compared with the room's floor.
    private var floorCheckedAt: Int64 = 0
    /// Whether the resumed-from bytes were given back to the allowance (the file started over).
    private var baseReleased = false
    /// Bytes the file already held when this response's body began: the resume offset on a 206.
    private(set) var baseOffset: Int64 = 0
    /// The latest response's status and headers, as they arrived.
    private(set) var response = ResponseHead()
    /// The Content-Length of the latest response, as its header arrived: libcurl does not report
    /// it when it refuses the body for being too large.
    var declaredLength: Int64? { response.declaredLength }
    var etag: String? { response.etag }
    var lastModified: String? { response.lastModified }
    var encoded: Bool { response.encoded }
    var retryAfterSeconds: Double? { response.retryAfterSeconds }
    /// The container the body's first bytes show, when they show one.
    private(set) var sniffedType: String?

    /// The type the file is named by (`ResponseHead.effectiveContentType`).
    var effectiveContentType: String? { response.effectiveContentType(sniffed: sniffedType) }
    private(set) var abort: Abort?
    /// Whether the temporary file was opened for this response (truncated or appended to).
    private(set) var fileOpened = false
    /// Whether the final response's headers are in, with a 2xx status: its length is known, if
    /// it has one, and the body is what remains.
    private(set) var receivingBody = false
    /// The body, for a document or an HLS playlist.
    private(set) var captured: [UInt8] = []
    /// Whether the body went to memory (`captured`) rather than to the file.
    var isCaptured: Bool { sink == .memory }
    /// What `MediaSniffer` made of the body, once it could tell.
    private(set) var verdict: MediaSniffer.Verdict = .undecided
    private var sink: Sink
    private var head: [UInt8] = []
    private var fd: Int32 = -1
    /// Where the file's writeback was last started: see `write`.
    private var writebackStarted: Int64 = 0
    /// Start writing a body to disk every this many bytes, so the fsync before it is placed has
    /// little left to wait for: the disk works while the network does.
    static let writebackChunk: Int64 = 4 << 20
    /// The most bytes of an HLS playlist an item's answer may hold.
    static let playlistLimit = 1 << 20
    /// Extra request headers (`If-Range`, the user's); libcurl reads them until the handle is
    /// cleaned up.
    var headers: UnsafeMutablePointer<curl_slist>?
    /// The run's `--limit-rate`, when it has one: a chunk it does not admit pauses the transfer.
    var gate: RateGate?
    /// libcurl writes a detailed message here; it must live as long as the handle.
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(request: TransferRequest, handle: UnsafeMutableRawPointer, attempt: Int) {
        self.request = request
        self.handle = handle
        self.attempt = attempt
        if case .document = request.expectation { sink = .memory } else { sink = .deciding }
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        closeFile()
        errorBuffer.deallocate()
        curl_slist_free_all(headers)
    }

    /// The connect timeout libcurl was given: what a host that never accepted cost.
    var connectTimeout: Duration = .zero

    /// Whether a TCP connection was made: libcurl's connect time stays 0 until then.
    var connected: Bool { microseconds(CURLINFO_CONNECT_TIME_T) > 0 }

    /// Whether the TLS handshake finished.
    var handshaken: Bool { microseconds(CURLINFO_APPCONNECT_TIME_T) > 0 }

    private func microseconds(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        guard vod_easy_getinfo_off(handle, info, &value) == CURLE_OK else { return 0 }
        return Int64(value)
    }

    var responseCode: Int {
        var code = 0
        _ = vod_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// Where a 3xx answer points, resolved by libcurl; nil for any other answer.
    var redirectTarget: String? {
        var value: UnsafeMutablePointer<CChar>?
        guard vod_easy_getinfo_string(handle, CURLINFO_REDIRECT_URL, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// The Content-Length of the final response, when there was one.
    var contentLength: Int64? {
        var length: curl_off_t = -1
        guard vod_easy_getinfo_off(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK,
              length >= 0 else { return declaredLength }
        return Int64(length)
    }

    /// The size of the whole resource, as far as the headers told.
    var declaredTotal: Int64? { response.declaredTotal(for: request) }

    /// Bytes in the temporary file, or held to decide on: what the item has so far.
    var fileBytes: Int64 { baseOffset + bodyBytes }

    /// Body bytes still to come, when the response said how many.
    var remainingBytes: Int64? {
        guard receivingBody, let length = declaredLength else { return nil }
        return max(0, length - bodyBytes)
    }

    /// Takes one header line from libcurl, for every response including redirects. At the end
    /// of a 2xx response's headers, the validator judges whether its body may come.
    func header(_ line: UnsafeRawBufferPointer) -> Int {
        switch response.take(String(decoding: line, as: UTF8.self), now: Date()) {
        case .status:
            receivingBody = false
        case .bodyFollows:
            receivingBody = true
            if let refusal = ResponseValidator.refusal(of: response, to: request, roomAvailable: request.room?.bytes.available) {
                abort = refusal
                return 0
            }
        case .field, .other:
            break
        }
        return line.count
    }

    var curlMessage: String {
        String(cString: errorBuffer)
    }

    /// Takes body bytes from libcurl. Returns how many were consumed; anything else makes libcurl
    /// stop the transfer with CURLE_WRITE_ERROR, and `abort` says why.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        // The status line the header callback read: no libcurl call per chunk of body.
        let status = response.status
        // A redirect's body is not the item's: it is read and dropped, so that the connection
        // can carry the next request.
        if (300..<400).contains(status) { return bytes.count }
        if !(200..<300).contains(status) && status != 0 {
            // An error page must not be stored as media.
            abort = .httpStatus(status)
            return 0
        }
        // Before anything is counted or opened: libcurl hands this same chunk over again when the
        // transfer is resumed.
        if let gate, !gate.admit(bytes.count, for: handle) { return Int(CURL_WRITEFUNC_PAUSE) }
        if sink == .deciding, status == 206, request.resume != nil {
            // The rest of a body judged when it began.
            guard open(appending: true) else { return 0 }
        }
        // libcurl 7.88 enforces CURLOPT_MAXFILESIZE only against a Content-Length; a chunked or
        // close-delimited body is counted here.
        if fileBytes + Int64(bytes.count) > request.maximumSize {
            bodyBytes += Int64(bytes.count)
            abort = .tooLarge
            return 0
        }
        if let room = request.room {
            guard room.bytes.claim(Int64(bytes.count)) else {
                abort = .noRoom
                return 0
            }
            roomClaimed += Int64(bytes.count)
            // A body with no reservation (no length, or a file system that cannot reserve) is
            // held to the floor as the disk stands, every mebibyte: other deliveries write too.
            if fd >= 0, reservedEnd == 0, fileBytes - floorCheckedAt >= Self.floorCheckInterval {
                floorCheckedAt = fileBytes
                if let free = diskSpace()?.free, free - Int64(bytes.count) < room.floor {
                    abort = .noRoom
                    return 0
                }
            }
        }
        if let allowance = request.allowance {
            // The item's whole is limited too, across the requests it is fetched in.
            guard allowance.claim(Int64(bytes.count)) else {
                abort = .tooLarge
                // Given back at once, not when the engine settles this transfer: another request
                // of the item may claim in the same pass (under load, both of two were dropped).
                // A transfer dropped as too large keeps nothing.
                allowance.release(claimed + (baseReleased ? 0 : request.resume?.offset ?? 0))
                claimed = 0
                baseReleased = true
                return 0
            }
            claimed += Int64(bytes.count)
        }
        // A 206 without a Content-Length is read to the connection's end: its bytes must stop
        // where its Content-Range says.
        if status == 206, let end = response.rangeEnd, (response.rangeStart ?? 0) + bodyBytes + Int64(bytes.count) - 1 > end {
            abort = .badRange("the server sent more than the bytes its Content-Range names (\(response.rangeStart ?? 0)-\(end))")
            return 0
        }
        bodyBytes += Int64(bytes.count)
        guard bytes.count > 0 else { return 0 }
        switch sink {
        case .deciding:
            head.append(contentsOf: bytes)
            guard decide(complete: false) else { return 0 }
            return bytes.count
        case .memory:
            return capture(bytes) ? bytes.count : 0
        case .file:
            return writeToFile(bytes) ? bytes.count : 0
        }
    }

    /// Judges the body from its first bytes, once there are enough, and sends what is held
    /// where it belongs. Returns false when the transfer must stop.
    private func decide(complete: Bool) -> Bool {
        verdict = MediaSniffer.verdict(contentType: response.contentType, head: head, complete: complete,
                                       ciphertext: request.expectation == .encryptedSegment)
        let held = head
        switch (verdict, request.expectation) {
        case (.undecided, _):
            return true
        case (.media, _):
            sniffedType = MediaSniffer.containerType(held)
            guard open(appending: false) else { return false }
            head = []
            return held.withUnsafeBytes { writeToFile($0) }
        case (.hlsPlaylist, .media), (.dashManifest, .media):
            sink = .memory
            head = []
            return held.withUnsafeBytes { capture($0) }
        case (.hlsPlaylist, _):
            abort = .rejected("the server answered with a playlist where a media segment was expected", final: false)
        case (.dashManifest, _):
            abort = .rejected("the server answered with a DASH manifest where a media segment was expected", final: false)
        case (.notMedia(let reason), _):
            abort = .rejected(reason, final: false)
        }
        head = []
        return false
    }

    private func capture(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let limit = if case .document(let limit) = request.expectation { limit } else { Self.playlistLimit }
        guard captured.count + bytes.count <= limit else {
            abort = .rejected("the \(verdict == .dashManifest ? "manifest" : "playlist") is larger than \(limit) bytes", final: true)
            return false
        }
        captured.append(contentsOf: bytes)
        return true
    }

    private func writeToFile(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do {
            try FileDescriptor(rawValue: fd).writeAll(bytes)
        } catch {
            abort = .fileError("\(error)")
            return false
        }
        if !wroteToFile {
            wroteToFile = true
            checkpoint = resumePoint
        }
        if fileBytes - writebackStarted >= Self.writebackChunk {
            // Best effort: where it fails, the fsync at the end does all the work, as before.
            _ = vod_start_writeback(fd, writebackStarted, fileBytes - writebackStarted)
            writebackStarted = fileBytes
        }
        return true
    }

    /// Opens the temporary file for this response: appended to on a 206 that continues it (its
    /// Content-Range was checked when the headers ended), rewritten from the start on anything
    /// else (a server that ignores `Range`, or a changed resource, answers 200 with the whole
    /// body).
    private func open(appending: Bool) -> Bool {
        fileOpened = true
        sink = .file
        if appending, let resume = request.resume {
            baseOffset = resume.offset
            writebackStarted = resume.offset
        }
        if !appending, let resume = request.resume {
            // The bytes an earlier response kept are overwritten: the item has them no more.
            request.allowance?.release(resume.offset)
            baseReleased = true
        }
        do {
            // Never through a planted link or FIFO (`SafeFile`): a resume appends only to a file
            // of vodapp's own, and a fresh start replaces whatever has the name.
            fd = appending ? try SafeFile.open(request.temporaryPath, O_WRONLY | O_APPEND) : try SafeFile.create(request.temporaryPath)
        } catch {
            abort = .fileError(error.description)
            return false
        }
        floorCheckedAt = baseOffset
        return reserve()
    }

    /// Reserves the blocks of the body's declared length before a byte of it lands, so that a
    /// body that cannot fit fails at once rather than filling the disk under the transfers
    /// beside it (on a 4 MiB disk, a 6 MiB item made a 1 KB one fail too). With a room
    /// (`--min-free`), the floor is then checked as the disk stands with every reservation made,
    /// this process's and other deliveries': they share one room rather than each spending all
    /// of it. A file system that cannot reserve (EOPNOTSUPP) is written as before.
    private func reserve() -> Bool {
        guard !encoded, let length = declaredLength, length > 0 else { return true }
        guard vod_reserve(fd, baseOffset, length) == 0 else {
            guard errno == ENOSPC else { return true }
            let disk = diskSpace()
            abort = .noSpace(needed: length, free: disk?.free, capacity: disk?.capacity)
            return false
        }
        reservedEnd = baseOffset + length
        if let room = request.room, let free = diskSpace()?.free, free < room.floor {
            abort = .noRoom
            return false
        }
        return true
    }

    /// The disk the body is written to: its free space, as an unprivileged user may use it, and
    /// all it holds.
    private func diskSpace() -> (free: Int64, capacity: Int64)? {
        var info = statvfs()
        guard fd >= 0, fstatvfs(fd, &info) == 0 else { return nil }
        return (Int64(info.f_bavail) * Int64(info.f_frsize), Int64(info.f_blocks) * Int64(info.f_frsize))
    }

    /// Gives back the reserved blocks past what the file holds: a partial kept for resuming
    /// must take only its bytes (the resume reserves the rest again). Two calls, as file
    /// systems differ: ext4 punches no hole past the end of a file but frees what lies there on
    /// a truncate to its own size; tmpfs does the opposite. With only the punch, a cut transfer
    /// on ext4 kept its whole declared length on disk (the tenth attacker trial filled a disk
    /// with nine stalled items of 100 KB each).
    private func releaseReservation() {
        guard reservedEnd > 0 else { return }
        defer { reservedEnd = 0 }
        var info = stat()
        guard fstat(fd, &info) == 0, Int64(info.st_size) < reservedEnd else { return }
        _ = vod_release_reserved(fd, Int64(info.st_size), reservedEnd - Int64(info.st_size))
        _ = ftruncate(fd, info.st_size)
    }

    /// What a resume could start from, as the file stands: its bytes, a validator and the whole
    /// file's size (a chunked body has none), for a body written as it came (not decoded).
    private var resumePoint: TransferOutcome.Partial? {
        guard case .file = sink, fileOpened, fileBytes > 0, !encoded, request.slice == nil,
              TransferRequest.Resume.validator(etag: etag, lastModified: lastModified) != nil,
              let total = declaredTotal ?? request.resume?.total else { return nil }
        return TransferOutcome.Partial(bytes: fileBytes, etag: etag, lastModified: lastModified, total: total)
    }

    /// Set by the first bytes this response writes to its file when they could be resumed from,
    /// and taken once by the engine (`takeCheckpoint`), so that the store hears of it before a
    /// crash could lose it: judged once per response, not on every turn of the transfer loop.
    private var checkpoint: TransferOutcome.Partial?
    private var wroteToFile = false

    /// The resume point to record, once per response.
    func takeCheckpoint() -> TransferOutcome.Partial? {
        defer { checkpoint = nil }
        return checkpoint
    }

    /// Ends a body that arrived whole: judges one shorter than the sniffer's look, and closes the
    /// file. Making it durable is the caller's, before placing it: fsyncing here would stall
    /// every other transfer on this thread, and one concurrent round of fsyncs for all files
    /// costs less than one at a time.
    /// - Returns: nil on success, else why the body is not kept.
    func finishBody() -> Abort? {
        if sink == .deciding, !decide(complete: true) {
            return abort ?? .fileError("cannot create the temporary file")
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
        let partial = settledPartial(keep: keep)
        if partial == nil {
            // Nothing of this response stays on disk: the room it took is the delivery's again.
            request.room?.bytes.release(roomClaimed)
            roomClaimed = 0
        }
        if partial == nil, let allowance = request.allowance {
            // Nothing of this request stays on disk: what it claimed is the item's again.
            allowance.release(claimed + (baseReleased ? 0 : request.resume?.offset ?? 0))
            claimed = 0
            baseReleased = true
        }
        return partial
    }

    private func settledPartial(keep: Bool) -> TransferOutcome.Partial? {
        guard case .file = sink, fileOpened else {
            // This response wrote nothing (or only bytes held to judge it, which are let go): an
            // earlier partial is untouched and still resumable.
            if keep, let resume = request.resume {
                return TransferOutcome.Partial(bytes: resume.offset, etag: nil, lastModified: nil, total: resume.total)
            }
            if !keep { SafeFile.remove(request.temporaryPath) }
            return nil
        }
        guard keep, let partial = resumePoint else {
            SafeFile.remove(request.temporaryPath)
            return nil
        }
        return partial
    }

    private func closeFile() {
        if fd >= 0 {
            releaseReservation()
            close(fd)
            fd = -1
        }
    }

    /// How many bytes an unreserved body writes between two looks at the disk's free space.
    static let floorCheckInterval: Int64 = 1 << 20
}
