/// One body to fetch into a file that nobody else can see yet.
public struct TransferRequest: Sendable, Equatable {
    /// Where an earlier, cut transfer stopped, and the validator its bytes were sent under.
    public struct Resume: Sendable, Equatable {
        /// Bytes already in the temporary file.
        public let offset: Int64
        /// Sent as `If-Range`: the server answers 206 only if the resource has not changed.
        public let validator: String

        public init(offset: Int64, validator: String) {
            self.offset = offset
            self.validator = validator
        }

        /// What `If-Range` can carry for a response: its ETag when it is strong (RFC 9110 allows
        /// no weak one there), else its Last-Modified.
        public static func validator(etag: String?, lastModified: String?) -> String? {
            if let etag, !etag.hasPrefix("W/") { return etag }
            return lastModified
        }
    }

    /// Identifies the request in outcomes; the playlist key.
    public let id: String
    public let url: MediaURL
    /// Where the body is streamed, out of sight; created only once body bytes arrive, and kept
    /// after a cut when the response had validators, so a later transfer can resume it.
    public let temporaryPath: String
    /// Bodies strictly larger are dropped.
    public let maximumSize: Int64
    public let resume: Resume?

    public init(id: String, url: MediaURL, temporaryPath: String, maximumSize: Int64, resume: Resume? = nil) {
        self.id = id
        self.url = url
        self.temporaryPath = temporaryPath
        self.maximumSize = maximumSize
        self.resume = resume
    }

    func resuming(from resume: Resume?) -> TransferRequest {
        TransferRequest(id: id, url: url, temporaryPath: temporaryPath, maximumSize: maximumSize, resume: resume)
    }
}
