import CompressNIO
import Foundation
import NIOCore
import NIOHTTP1

/// Answers requests on one connection. Bodies are produced as the socket accepts them
/// (`channelWritabilityChanged`), so a 1 GiB body costs no memory, and at a capped rate when asked.
final class SampleRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    /// Where a body's bytes come from.
    private enum BodySource {
        /// `SampleContent`'s pattern: any length, no memory.
        case pattern
        /// A real clip of `SampleMedia`.
        case clip([UInt8])

        /// Up to `count` bytes from `offset`; `count` never goes past the end of a clip.
        func slice(from offset: Int64, count: Int) -> ArraySlice<UInt8> {
            switch self {
            case .pattern: SampleContent.slice(from: offset, count: count)
            case .clip(let bytes): bytes[Int(offset)..<Int(offset) + count]
            }
        }
    }

    /// A body being written.
    private struct BodyStream {
        var offset: Int64
        let end: Int64
        let source: BodySource
        let chunked: Bool
        let rate: Int?
        /// Close the connection once the body is out (a short body, a close-delimited one).
        let closeAfter: Bool
        /// Keep the connection open and silent once `end` is reached.
        let stallAfter: Bool
        /// Reset the connection (RST, not FIN) once `end` is reached.
        let resetAfter: Bool
        let record: Int
        /// Whether the link was booked for the first chunk: see `pump`.
        var linkBooked = false
    }

    private static let chunkSize = 64 * 1024
    private static let lastModified = "Sat, 01 Jan 2022 00:00:00 GMT"

    private let log: SampleRequestLog
    private let defaultRate: Int?
    private let link: SampleLink?
    private var head: HTTPRequestHead?
    private var body: BodyStream?
    private var openRecord: Int?
    private var pumping = false

    init(log: SampleRequestLog, defaultRate: Int?, link: SampleLink?) {
        self.log = log
        self.defaultRate = defaultRate
        self.link = link
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            if let head { respond(to: head, context: context) }
            head = nil
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pump(context: context) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        body = nil
        if let openRecord { log.end(at: openRecord) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// One request being answered: what its route and faults are judged by.
    private struct Exchange {
        let context: ChannelHandlerContext
        let target: String
        let path: String
        let query: [String: String]
        /// Request headers, names lowercased.
        let headers: [String: String]
        let record: Int
        let rate: Int?
        let isHead: Bool
        /// `?type=video/webm`: the Content-Type a server sends for a URL that names no extension.
        let mediaType: String
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let (path, query) = Self.split(head.uri)
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        let record = log.begin(SampleRequestRecord(target: head.uri, method: head.method.rawValue, headers: headers, started: .now))
        openRecord = record
        let exchange = Exchange(context: context, target: head.uri, path: path, query: query, headers: headers, record: record,
                                rate: query["rate"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? defaultRate,
                                isHead: head.method == .HEAD, mediaType: query["type"] ?? Self.contentType(path))
        let mediaType = exchange.mediaType
        switch SampleRoute(path: path, query: query) {
        case .bytes(let size):
            representation(exchange, size: size, etag: "\"sample-\(size)\"", source: .pattern)
        case .media(let name):
            if let bytes = SampleMedia.bytes(named: name), let etag = SampleMedia.etag(named: name) {
                representation(exchange, size: Int64(bytes.count), etag: etag, source: .clip(bytes))
            } else {
                answer(exchange, 404, text: "no such sample: \(path)\n")
            }
        case .chunked(let size):
            writeHead(200, ["Transfer-Encoding": "chunked", "Content-Type": mediaType], context: context)
            stream(exchange, size, chunked: true)
        case .closeDelimited(let size):
            writeHead(200, ["Connection": "close", "Content-Type": mediaType], context: context)
            stream(exchange, size, closeAfter: true)
        case .short(let declared, let sent):
            writeHead(200, ["Content-Length": "\(declared)", "Content-Type": mediaType], context: context)
            stream(exchange, sent, closeAfter: true)
        case .long(let declared, let sent):
            writeHead(200, ["Content-Length": "\(declared)", "Content-Type": mediaType], context: context)
            stream(exchange, sent)
        case .gzip(let size):
            // Compressed for real (compress-nio, over zlib), so that the client's decoder meets
            // the deflate data a server would send.
            var plain = context.channel.allocator.buffer(bytes: SampleContent.bytes(count: size))
            let encoded = (try? plain.compress(with: .gzip(), allocator: context.channel.allocator))
                ?? context.channel.allocator.buffer(capacity: 0)
            writeHead(200, ["Content-Length": "\(encoded.readableBytes)", "Content-Encoding": "gzip",
                            "Content-Type": mediaType], context: context)
            if !exchange.isHead { context.write(wrapOutboundOut(encoded), promise: nil) }
            log.addBody(encoded.readableBytes, at: record)
            finish(context: context, record: record, close: false)
        case .status(let code):
            answer(exchange, code, text: "status \(code)\n")
        case .redirect(let target):
            writeHead(302, ["Location": target, "Content-Length": "0"], context: context)
            finish(context: context, record: record, close: false)
        case .loop:
            writeHead(302, ["Location": "/loop", "Content-Length": "0"], context: context)
            finish(context: context, record: record, close: false)
        case .stallHeaders:
            break
        case .stallBody(let size):
            writeHead(200, ["Content-Length": "\(size)", "Content-Type": mediaType], context: context)
            stream(exchange, size / 2, stallAfter: true)
        case .payload(let token):
            if let token, headers["authorization"] != "Bearer \(token)" {
                answer(exchange, 401, text: "{\"error\":\"a valid bearer token is required\"}\n", type: "application/json",
                       adding: ["WWW-Authenticate": "Bearer"])
                return
            }
            answer(exchange, 200, text: SampleCatalogue.payload(baseURL: "http://" + (headers["host"] ?? "127.0.0.1")),
                   type: "application/json")
        case .notFound:
            answer(exchange, 404, text: "no such sample: \(path)\n")
        }
    }

    /// A whole small answer: a status and its text, the connection kept.
    private func answer(_ exchange: Exchange, _ status: Int, text: String, type: String = "text/plain",
                        adding extra: [String: String] = [:]) {
        let context = exchange.context
        writeHead(status, ["Content-Length": "\(text.utf8.count)", "Content-Type": type].merging(extra) { $1 }, context: context)
        if !exchange.isHead { context.write(wrapOutboundOut(context.channel.allocator.buffer(string: text)), promise: nil) }
        finish(context: context, record: exchange.record, close: false)
    }

    /// Starts a body of `length` bytes from `offset` after its head, at the exchange's rate.
    private func stream(_ exchange: Exchange, _ length: Int64, from offset: Int64 = 0, source: BodySource = .pattern,
                        chunked: Bool = false, closeAfter: Bool = false, stallAfter: Bool = false, resetAfter: Bool = false) {
        if exchange.isHead {
            // The head alone, flushed: it was only written so far.
            finish(context: exchange.context, record: exchange.record, close: false)
            return
        }
        body = BodyStream(offset: offset, end: offset + length, source: source, chunked: chunked, rate: exchange.rate,
                          closeAfter: closeAfter, stallAfter: stallAfter, resetAfter: resetAfter, record: exchange.record)
        pump(context: exchange.context)
    }

    /// A body with validators: Content-Length, a strong ETag, Last-Modified, `Accept-Ranges:
    /// bytes`, one Range honoured (If-Range too), and the faults `?fail`, `?ranges` ask for.
    /// `/bytes/N` and `/media/NAME` are both answered by it.
    private func representation(_ exchange: Exchange, size: Int64, etag: String, source: BodySource) {
        let (context, query) = (exchange.context, exchange.query)
        // `?etag=none`: validated by its Last-Modified alone.
        var common = ["ETag": etag, "Last-Modified": Self.lastModified, "Accept-Ranges": "bytes", "Content-Type": exchange.mediaType]
        if query["etag"] == "none" { common["ETag"] = nil }
        let failing = query["fail"].flatMap(Int.init).map { log.count(target: exchange.target) <= $0 } ?? false
        // `?fail=K&cut=M`: the first K requests get M bytes of a whole body, then a reset.
        if failing, let cut = query["cut"].flatMap(Int64.init) {
            writeHead(200, ["Content-Length": "\(size)"].merging(common) { $1 }, context: context)
            stream(exchange, min(cut, size), source: source, resetAfter: true)
            return
        }
        // `?fail=K&status=S[&retry-after=T]`: the first K requests for this target fail.
        if failing {
            let code = query["status"].flatMap(Int.init) ?? 503
            answer(exchange, code, text: "failing on purpose: \(code)\n", adding: query["retry-after"].map { ["Retry-After": $0] } ?? [:])
            return
        }
        // `?ranges=ignore`: a server that sends validators but answers every Range with 200.
        let rangeHeader = query["ranges"] == "ignore" ? nil : exchange.headers["range"]
        switch Self.range(rangeHeader, ifRange: exchange.headers["if-range"], etag: etag, size: size) {
        case .whole where query["ranges"] == "always206" && rangeHeader == nil && size > 0:
            // Partial Content to a request that asked for no range.
            writeHead(206, ["Content-Length": "\(size)", "Content-Range": "bytes 0-\(size - 1)/\(size)"].merging(common) { $1 },
                      context: context)
            stream(exchange, size, source: source)
        case .whole:
            writeHead(200, ["Content-Length": "\(size)"].merging(common) { $1 }, context: context)
            stream(exchange, size, source: source)
        case .partial(let range):
            let fault = PartialAnswer(to: range, of: size, faulty: query["ranges"])
            var headers = common
            for (name, value) in fault.changing { headers[name] = value }
            headers["Content-Range"] = fault.label
            if fault.lengthless { headers["Connection"] = "close" } else { headers["Content-Length"] = "\(fault.sent.count)" }
            writeHead(206, headers, context: context)
            stream(exchange, Int64(fault.sent.count) + fault.extra, from: fault.sent.lowerBound, source: source,
                   closeAfter: fault.lengthless)
        case .unsatisfiable:
            writeHead(416, ["Content-Length": "0", "Content-Range": "bytes */\(size)"], context: context)
            finish(context: context, record: exchange.record, close: false)
        }
    }

    /// What a 206 sends for a Range of `range` of a `size`-byte body: the bytes (offsets in the
    /// body), the Content-Range's text, whether it goes without a Content-Length (the connection
    /// closes after `extra` bytes more), and headers changed from the 200's (nil removes one).
    /// Every `?ranges` fault is one of these; none is the honest answer.
    private struct PartialAnswer {
        var sent: Range<Int64>
        var label: String
        var lengthless = false
        var extra: Int64 = 0
        var changing: [String: String?] = [:]

        init(to range: Range<Int64>, of size: Int64, faulty mode: String?) {
            let (first, last) = (range.lowerBound, range.upperBound - 1)
            sent = range
            label = "bytes \(first)-\(last)/\(size)"
            func honest(_ bytes: Range<Int64>) {
                sent = bytes
                label = "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(size)"
            }
            switch mode {
            case "short" where range.count > 1:
                // Honest about what it sends, but sends at most 100,000 bytes of what was asked.
                honest(first..<(first + min(Int64(range.count) / 2, 100_000)))
            case "lie-length":
                // A Content-Range for the rest, and a Content-Length (and body) of half of it.
                sent = first..<(first + Int64(range.count) / 2)
            case "overflow":
                // The right Content-Range, no Content-Length, and 50,000 bytes past its end before
                // the connection closes.
                (label, lengthless, extra) = ("bytes \(first)-\(last)/*", true, 50_000)
            case "huge-end":
                // An end at Int64's last value, no length, a few bytes: numbers to overflow on.
                sent = first..<(first + min(5_000, Int64(range.count)))
                (label, lengthless) = ("bytes \(first)-9223372036854775807/*", true)
            case "truncated":
                // The right Content-Range with an unknown total, no length, and 5,000 bytes of it.
                sent = first..<(first + min(5_000, Int64(range.count)))
                (label, lengthless) = ("bytes \(first)-\(last)/*", true)
            case "no-date":
                // The rest, without the Last-Modified the first answer was validated by.
                changing = ["Last-Modified": nil]
            case "trickle":
                // 100 bytes of the rest each time, honestly labelled.
                honest(first..<min(range.upperBound, first + 100))
            case "no-etag":
                // The rest, without the ETag a 200 would carry: nothing shows it is the same version.
                changing = ["ETag": nil]
            case "other-size":
                // The same ETag, and a total that is not the file's.
                label = "bytes \(first)-\(last)/\(size * 3 / 2)"
            case "other-version":
                // Ignores If-Range: the rest of another version, under that version's ETag.
                changing = ["ETag": "\"another-version\""]
            case "lie":
                // Claims the range starts at 0, whatever was asked, and sends the start: resuming
                // on it would splice the wrong bytes.
                honest(0..<Int64(range.count))
            default:
                break
            }
        }
    }

    /// Writes body bytes while the socket takes them, or one rate-sized chunk per tick.
    ///
    /// Not reentrant: a write or flush can fire `channelWritabilityChanged` synchronously, and a
    /// nested pump would send the same chunk twice. The loop re-checks writability itself.
    private func pump(context: ChannelHandlerContext) {
        guard !pumping, var stream = body else { return }
        pumping = true
        defer { pumping = false }
        if let link, !stream.linkBooked, stream.offset < stream.end {
            // The first chunk waits for its turn on the link like every other: sent at once, each
            // new response would get a chunk beside the link's rate, and a client measuring the
            // link would see it widen whenever a transfer starts.
            stream.linkBooked = true
            body = stream
            let booked = link.book(Int(min(Int64(link.chunk), stream.end - stream.offset)))
            context.eventLoop.assumeIsolated().scheduleTask(deadline: booked) { [weak self] in
                self?.pump(context: context)
            }
            return
        }
        while context.channel.isWritable && stream.offset < stream.end {
            var count = Int(min(Int64(Self.chunkSize), stream.end - stream.offset))
            if let rate = stream.rate {
                // Ten ticks a second: smooth enough for a progress display, cheap for the loop.
                count = min(count, max(1, rate / 10))
            }
            if let link { count = min(count, link.chunk) }
            var buffer = context.channel.allocator.buffer(capacity: count + 16)
            if stream.chunked { buffer.writeString(String(count, radix: 16) + "\r\n") }
            buffer.writeBytes(stream.source.slice(from: stream.offset, count: count))
            if stream.chunked { buffer.writeString("\r\n") }
            stream.offset += Int64(count)
            body = stream
            log.addBody(count, at: stream.record)
            // Flushing each chunk inside the loop means writability is re-read after the flush;
            // a change it fires synchronously is seen here, not lost to the reentrancy guard.
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
            var next: NIODeadline?
            if let rate = stream.rate {
                next = .now() + .nanoseconds(Int64(count) * 1_000_000_000 / Int64(rate))
            }
            if let link {
                let booked = link.book(count)
                next = max(next ?? booked, booked)
            }
            if let next, stream.offset < stream.end {
                context.eventLoop.assumeIsolated().scheduleTask(deadline: next) { [weak self] in
                    self?.pump(context: context)
                }
                return
            }
        }
        guard stream.offset >= stream.end else { return }
        body = nil
        if stream.stallAfter { return }
        if stream.resetAfter {
            log.end(at: stream.record)
            openRecord = nil
            // SO_LINGER with a zero timeout turns close into a reset: the client sees ECONNRESET.
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0))).assumeIsolated().whenComplete { _ in
                guard let options = context.channel as? any SocketOptionProvider else {
                    context.close(promise: nil)
                    return
                }
                options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
            }
            return
        }
        if stream.chunked {
            context.write(wrapOutboundOut(context.channel.allocator.buffer(string: "0\r\n\r\n")), promise: nil)
        }
        finish(context: context, record: stream.record, close: stream.closeAfter)
    }

    private func finish(context: ChannelHandlerContext, record: Int, close: Bool) {
        log.end(at: record)
        openRecord = nil
        if close {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        } else {
            context.flush()
        }
    }

    private func writeHead(_ status: Int, _ headers: [String: String], context: ChannelHandlerContext) {
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            text += "\(name): \(value)\r\n"
        }
        text += "\r\n"
        context.write(wrapOutboundOut(context.channel.allocator.buffer(string: text)), promise: nil)
    }

    private enum RangeAnswer {
        case whole
        case partial(Range<Int64>)
        case unsatisfiable
    }

    /// A single `bytes=a-b`, `bytes=a-` or `bytes=-n` range; an If-Range that does not match the
    /// ETag or Last-Modified means the whole body, as RFC 9110 says.
    private static func range(_ header: String?, ifRange: String?, etag: String, size: Int64) -> RangeAnswer {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        if let ifRange, ifRange != etag, ifRange != lastModified { return .whole }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard spec.count == 2 else { return .whole }
        let first = Int64(spec[0])
        let last = Int64(spec[1])
        let range: Range<Int64>
        switch (first, last) {
        // A start past the end is unsatisfiable, and an end past it (up to Int64.max) means the
        // end: neither may trap, since any local process can ask.
        case (let start?, let end?) where start <= end:
            guard start < size else { return .unsatisfiable }
            range = start..<(end >= size - 1 ? size : end + 1)
        case (let start?, nil) where spec[1].isEmpty:
            guard start < size else { return .unsatisfiable }
            range = start..<size
        case (nil, let suffix?) where spec[0].isEmpty: range = max(0, size - suffix)..<size
        default: return .whole
        }
        return range.isEmpty || range.lowerBound >= size ? .unsatisfiable : .partial(range)
    }

    private static func contentType(_ path: String) -> String {
        switch path.split(separator: ".").last {
        case "mp4", "m4v": "video/mp4"
        case "webm": "video/webm"
        default: "application/octet-stream"
        }
    }

    private static func split(_ uri: String) -> (path: String, query: [String: String]) {
        let parts = uri.split(separator: "?", maxSplits: 1)
        let path = parts.first.map(String.init) ?? "/"
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                if kv.count == 2 { query[kv[0]] = kv[1] }
            }
        }
        return (path, query)
    }
}
