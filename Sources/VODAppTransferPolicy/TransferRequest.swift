import VODAppBase
import VODAppModel

/// One body to fetch: into a file that nobody else can see yet, or, for a small document such as
/// an HLS playlist or key, into memory.
public struct TransferRequest: Sendable, Equatable {
    /// Where an earlier, cut transfer stopped, and the validator its bytes were sent under.
    public struct Resume: Sendable, Equatable {
        /// Bytes already in the temporary file.
        public let offset: Int64
        /// Sent as `If-Range`: the server answers 206 only if the resource has not changed.
        public let validator: String
        /// The size of the version kept: a 206 of another size is of another version, whatever its
        /// validators claim. Required: without it, a 206 that ends early (`bytes N-M/*`) cannot be
        /// told from the file's end, so bytes kept without a known size are never resumed.
        public let total: Int64

        public init(offset: Int64, validator: String, total: Int64) {
            self.offset = offset
            self.validator = validator
            self.total = total
        }

        /// What `If-Range` can carry for a response: its ETag when it is strong and well formed
        /// (quoted; RFC 9110 allows no weak one there), else its Last-Modified.
        public static func validator(etag: String?, lastModified: String?) -> String? {
            if let etag, isStrongETag(etag) { return etag }
            return lastModified
        }

        /// `"…"`: a strong entity tag. An unquoted one is malformed, and cannot be told from a
        /// date once stored.
        static func isStrongETag(_ text: String) -> Bool {
            text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"")
        }
    }

    /// Part of a resource, asked for with `Range` (an HLS segment of `#EXT-X-BYTERANGE`): the
    /// answer must be a 206 of exactly these bytes. A cut slice is fetched again whole, not
    /// resumed: slices are segments, small.
    public struct Slice: Sendable, Equatable {
        public let offset: Int64
        public let length: Int64

        /// `length > 0`, and `offset + length` fits in an Int64.
        public init(offset: Int64, length: Int64) {
            self.offset = offset
            self.length = length
        }

        /// The last byte's position.
        public var last: Int64 { offset + length - 1 }
    }

    /// What the answer must be, and where its body goes.
    public enum Expectation: Sendable, Equatable {
        /// A playlist item: media goes to the file; an HLS playlist is kept in memory
        /// (`TransferOutcome.Result.captured`) for the caller to follow; anything else (a page,
        /// JSON, text, an empty body, a DASH manifest) fails.
        case media
        /// A piece of media (an HLS segment): to the file, and never a page or text.
        case segment
        /// A segment encrypted as a whole (AES-128): its bytes are ciphertext, which shows no
        /// container's signature, so a server's generic text label (`text/vnd.trolltech.linguist`
        /// for `.ts`) cannot be checked against one. It is still never a page or text.
        case encryptedSegment
        /// A small document (a playlist, a key) into memory, at most `limit` bytes.
        case document(limit: Int)
    }

    /// Identifies the request in outcomes; the playlist key for an item.
    public let id: String
    /// What is fetched now: after a redirect, the redirect's target.
    public let url: MediaURL
    /// What the item named, before any redirect: the origin its headers and cookies belong to,
    /// and what a retry fetches again (a redirect may lead to an expiring signed URL).
    public let originalURL: MediaURL
    /// Where the body is streamed, out of sight; created only once body bytes arrive, and kept
    /// after a cut when the response had validators, so a later transfer can resume it.
    public let temporaryPath: String
    /// Bodies strictly larger are dropped.
    public let maximumSize: Int64
    public let resume: Resume?
    /// The bytes of the resource asked for, when not all of it.
    public let slice: Slice?
    public let expectation: Expectation
    /// Redirects followed so far to reach `url`.
    public let redirects: Int
    /// The URL whose origin the user's headers and cookies belong to: the payload's URL of the
    /// item, also for the playlists, keys and segments an HLS item adds.
    package let credentialScope: MediaURL
    /// Bytes this request shares with others of the same item (an HLS item's segments), on top
    /// of its own `maximumSize`.
    package let allowance: ByteAllowance?
    /// Bytes every request of the delivery shares on the disk (what `--min-free` leaves): a body
    /// that would pass it is not started, or is stopped where it would.
    package let room: Room?

    /// The disk space a run's requests share, and what a body refused for it would do: the
    /// caller knows which limit it is ("leave less than --min-free 4.0 MiB free in DIR").
    public struct Room: Sendable, Equatable {
        public let bytes: ByteAllowance
        /// The free space the disk must keep whoever writes: checked as the disk stands, so
        /// that deliveries running at once share the room above it.
        public let floor: Int64
        public let consequence: String

        public init(bytes: ByteAllowance, floor: Int64, consequence: String) {
            self.bytes = bytes
            self.floor = floor
            self.consequence = consequence
        }

        /// Why a body of `size` bytes (nil: not declared) was refused, with its size when known.
        func refusal(size: Int64?) -> String {
            "not fetched: " + (size.map { "its \(ByteSize.format($0)) would " } ?? "it would ") + consequence
        }
    }

    /// - Parameters:
    ///   - credentialScope: the item's URL, for a request made on an item's behalf (an HLS
    ///     segment); the request's own URL by default.
    ///   - allowance: the bytes the item's requests share, for a request made on its behalf.
    ///   - room: the bytes all the delivery's requests may still write to the disk.
    ///   - slice: the bytes of the resource to fetch, when not all of it; never with `resume`.
    public init(id: String, url: MediaURL, temporaryPath: String, maximumSize: Int64, resume: Resume? = nil,
                expectation: Expectation = .media, credentialScope: MediaURL? = nil, allowance: ByteAllowance? = nil,
                room: Room? = nil, slice: Slice? = nil) {
        self.init(id: id, url: url, originalURL: url, temporaryPath: temporaryPath, maximumSize: maximumSize,
                  resume: slice == nil ? resume : nil, slice: slice, expectation: expectation, redirects: 0,
                  credentialScope: credentialScope ?? url, allowance: allowance, room: room)
    }

    private init(id: String, url: MediaURL, originalURL: MediaURL, temporaryPath: String, maximumSize: Int64,
                 resume: Resume?, slice: Slice?, expectation: Expectation, redirects: Int, credentialScope: MediaURL,
                 allowance: ByteAllowance?, room: Room?) {
        self.id = id
        self.room = room
        self.url = url
        self.credentialScope = credentialScope
        self.allowance = allowance
        self.originalURL = originalURL
        self.temporaryPath = temporaryPath
        self.maximumSize = maximumSize
        self.resume = resume
        self.slice = slice
        self.expectation = expectation
        self.redirects = redirects
    }

    /// The same request, from the item's own URL again, resuming from `resume`: a retry. A
    /// slice is asked for whole again.
    package func resuming(from resume: Resume?) -> TransferRequest {
        TransferRequest(id: id, url: originalURL, originalURL: originalURL, temporaryPath: temporaryPath,
                        maximumSize: maximumSize, resume: slice == nil ? resume : nil, slice: slice, expectation: expectation,
                        redirects: 0, credentialScope: credentialScope, allowance: allowance, room: room)
    }

    /// The same request again after a transfer that kept `partial`: resuming from it when it
    /// has bytes and a validator (the one its response sent, or, when it wrote nothing, the one
    /// this request resumed under), from the start otherwise.
    package func retried(keeping partial: TransferOutcome.Partial?) -> TransferRequest {
        let resume = partial.flatMap { partial -> Resume? in
            guard let validator = Resume.validator(etag: partial.etag, lastModified: partial.lastModified) ?? self.resume?.validator,
                  let total = partial.total ?? self.resume?.total else { return nil }
            return Resume(offset: partial.bytes, validator: validator, total: total)
        }
        return resuming(from: resume)
    }

    /// The same request sent to where a redirect points.
    package func redirected(to target: MediaURL) -> TransferRequest {
        TransferRequest(id: id, url: target, originalURL: originalURL, temporaryPath: temporaryPath,
                        maximumSize: maximumSize, resume: resume, slice: slice, expectation: expectation, redirects: redirects + 1,
                        credentialScope: credentialScope, allowance: allowance, room: room)
    }

    /// Whether the item's own headers and cookies may go with this request: only to the origin
    /// the item named, never to another host a redirect or an HLS playlist leads to.
    package var carriesCredentials: Bool { url.isSameOrigin(as: credentialScope) }
}
