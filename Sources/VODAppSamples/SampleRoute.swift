/// What the sample server answers for a path. Sizes are in bytes.
///
/// | path | answer |
/// | --- | --- |
/// | `/bytes/N[.ext]` | N bytes with Content-Length, ETag, Range support |
/// | `/media/NAME` | a real clip (`SampleMedia`: `tulips.mp4`, `unicorns.mp4`, `sunset.mp4`), answered as `/bytes/N` is |
/// | `/chunked/N[.ext]` | N bytes, chunked |
/// | `/close/N[.ext]` | N bytes, no length: the body ends when the connection closes |
/// | `/short/N/M[.ext]` | Content-Length N, then M < N bytes and a close |
/// | `/long/N/M[.ext]` | Content-Length N, then M > N bytes on a kept-alive connection |
/// | `/gzip/N[.ext]` | N bytes gzip-encoded (`Content-Encoding: gzip`), though nobody asked |
/// | `/status/CODE` | that status, a short text body |
/// | `/redirect?to=URL` | 302 to URL |
/// | `/loop` | 302 to itself, forever |
/// | `/stall-headers` | reads the request and never answers |
/// | `/stall-body/N` | headers for N bytes, half the body, then silence |
/// | `/payload.json[?token=T]` | the sample payload, pointing at this server; with a token, only for `Authorization: Bearer T` (401 otherwise) |
///
/// Any body route takes `?rate=BYTES_PER_SECOND` to cap its speed. `/bytes/N` and `/media/NAME` also take
/// `?ranges=ignore` (answer every Range with the whole body), `?ranges=lie` (answer a Range with a
/// 206 whose Content-Range starts at 0), `?ranges=always206` (answer a request for the whole body
/// with 206), `?ranges=short` (answer a Range with at most its first half and 100,000 bytes, honestly labelled),
/// `?ranges=lie-length` (a Content-Range for the rest, a Content-Length and body of half of it),
/// `?ranges=overflow` (the right Content-Range, no Content-Length, 50,000 bytes too many),
/// `?ranges=other-version` (the rest of another version, under another ETag, If-Range ignored),
/// `?ranges=huge-end` (`bytes N-9223372036854775807/*`), `?ranges=truncated` (`/*`, 5,000 bytes,
/// closed), `?ranges=no-etag` (the rest without its ETag), `?ranges=other-size` (another total),
/// `?ranges=no-date` (the rest without its Last-Modified), `?ranges=trickle` (100 bytes at a time),
/// `?etag=none` (no ETag at all: Last-Modified is the validator),
/// `?fail=K&status=S&retry-after=T` (the first K requests
/// for the same target get status S, 503 by default) and `?fail=K&cut=M` (the first K requests get
/// the headers and M body bytes, then a TCP reset).
public enum SampleRoute: Equatable, Sendable {
    case bytes(Int64)
    /// A clip of `SampleMedia`, by name.
    case media(String)
    case chunked(Int64)
    case closeDelimited(Int64)
    case short(declared: Int64, sent: Int64)
    case long(declared: Int64, sent: Int64)
    case gzip(Int64)
    case status(Int)
    case redirect(to: String)
    case loop
    case stallHeaders
    case stallBody(Int64)
    case payload(token: String?)
    case notFound

    /// Parses a request target such as `/bytes/1024.mp4?rate=100`.
    public init(path: String, query: [String: String]) {
        let parts = path.split(separator: "/").map { String($0) }
        func size(_ index: Int) -> Int64? {
            guard parts.count > index else { return nil }
            let text = parts[index].split(separator: ".").first.map(String.init) ?? ""
            return Int64(text).flatMap { $0 >= 0 ? $0 : nil }
        }
        switch (parts.first, parts.count) {
        case ("bytes", 2): self = size(1).map { .bytes($0) } ?? .notFound
        case ("media", 2): self = SampleMedia.clip(named: parts[1]) != nil ? .media(parts[1]) : .notFound
        case ("chunked", 2): self = size(1).map { .chunked($0) } ?? .notFound
        case ("close", 2): self = size(1).map { .closeDelimited($0) } ?? .notFound
        case ("short", 3):
            if let declared = size(1), let sent = size(2), sent < declared {
                self = .short(declared: declared, sent: sent)
            } else {
                self = .notFound
            }
        case ("long", 3):
            if let declared = size(1), let sent = size(2), sent > declared {
                self = .long(declared: declared, sent: sent)
            } else {
                self = .notFound
            }
        case ("gzip", 2): self = size(1).flatMap { $0 <= 16 * 1024 * 1024 ? .gzip($0) : nil } ?? .notFound
        case ("status", 2): self = Int(parts[1]).flatMap { (100...599).contains($0) ? .status($0) : nil } ?? .notFound
        case ("redirect", 1): self = query["to"].map { .redirect(to: $0) } ?? .notFound
        case ("loop", 1): self = .loop
        case ("stall-headers", 1): self = .stallHeaders
        case ("stall-body", 2): self = size(1).map { .stallBody($0) } ?? .notFound
        case ("payload.json", 1): self = .payload(token: query["token"])
        default: self = .notFound
        }
    }
}
