/// How one transfer ended.
public struct TransferOutcome: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        /// The whole body is in the request's temporary file, closed but not yet fsynced, and its
        /// length matches any Content-Length the server sent. `bytes` is the file's size, resumed
        /// bytes included.
        case completed(bytes: Int64)
        /// The body is larger than the limit; `declaredSize` is the size the server announced.
        case tooLarge(declaredSize: Int64?)
        /// The run's deadline, or a stop request, cut the transfer.
        case timedOut(reason: String)
        case failed(reason: String)
    }

    /// What stays in the temporary file after a transfer that did not complete, to resume from.
    public struct Partial: Sendable, Equatable {
        public let bytes: Int64
        public let etag: String?
        public let lastModified: String?
    }

    public let id: String
    public let result: Result
    /// The final response's status, when a response came.
    public let httpStatus: Int?
    /// Body bytes that reached vodapp in this run, stored or not: how much a drop cost on the wire.
    public let bodyBytesReceived: Int64
    /// The response's validators, for the store.
    public let etag: String?
    public let lastModified: String?
    /// The final response's Content-Type, which names the file's extension when the URL does not.
    public let contentType: String?
    /// Set when the temporary file was kept for a later resume.
    public let partial: Partial?
    /// Attempts made, retries included.
    public let attempts: Int
    /// What the server asked for with `Retry-After`, in seconds, on the last attempt.
    public let retryAfterSeconds: Double?

    public init(id: String, result: Result, httpStatus: Int? = nil, bodyBytesReceived: Int64 = 0,
                etag: String? = nil, lastModified: String? = nil, contentType: String? = nil, partial: Partial? = nil,
                attempts: Int = 1, retryAfterSeconds: Double? = nil) {
        self.id = id
        self.result = result
        self.httpStatus = httpStatus
        self.bodyBytesReceived = bodyBytesReceived
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.partial = partial
        self.attempts = attempts
        self.retryAfterSeconds = retryAfterSeconds
    }
}
