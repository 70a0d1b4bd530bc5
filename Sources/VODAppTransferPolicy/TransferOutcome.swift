import Foundation
import VODAppModel

/// How one transfer ended.
public struct TransferOutcome: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        /// The whole body is in the request's temporary file, closed but not yet fsynced, and its
        /// length matches the size the server announced. `bytes` is the file's size, resumed
        /// bytes included.
        case completed(bytes: Int64)
        /// The whole body is in memory: a `.document` request's, or an HLS playlist a `.media`
        /// request found.
        case captured([UInt8])
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
        /// The whole file's size, when the response said it.
        public var total: Int64? = nil

        package init(bytes: Int64, etag: String?, lastModified: String?, total: Int64? = nil) {
            self.bytes = bytes
            self.etag = etag
            self.lastModified = lastModified
            self.total = total
        }
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
    /// A failure that delivering again cannot fix (a 404, a certificate that does not verify, a
    /// redirect to `file:`), as opposed to one that may pass later (a 503, a reset, a login page).
    public let isFinal: Bool
    /// Where the body came from after redirects: what relative references in it resolve against.
    public let finalURL: MediaURL?
    /// For a captured item body: the sniffer took it for a DASH manifest, not an HLS playlist
    /// (`MediaSniffer.Verdict`), so that what follows it need not judge it again.
    public var isDASHManifest = false

    public init(id: String, result: Result, httpStatus: Int? = nil, bodyBytesReceived: Int64 = 0,
                etag: String? = nil, lastModified: String? = nil, contentType: String? = nil, partial: Partial? = nil,
                attempts: Int = 1, retryAfterSeconds: Double? = nil, isFinal: Bool = false, finalURL: MediaURL? = nil) {
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
        self.isFinal = isFinal
        self.finalURL = finalURL
    }
}
