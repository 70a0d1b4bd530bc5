/// How one transfer ended.
public struct TransferOutcome: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        /// The whole body is in the request's temporary file, fsynced, and its length matches any
        /// Content-Length the server sent.
        case completed(bytes: Int64)
        /// The body is larger than the limit; `declaredSize` is the Content-Length when there was one.
        case tooLarge(declaredSize: Int64?)
        /// The run's deadline cut the transfer.
        case timedOut(reason: String)
        case failed(reason: String)
    }

    public let id: String
    public let result: Result
    /// The final response's status, when a response came.
    public let httpStatus: Int?
    /// Body bytes that reached vodapp, stored or not: how much a drop cost on the wire.
    public let bodyBytesReceived: Int64

    public init(id: String, result: Result, httpStatus: Int? = nil, bodyBytesReceived: Int64 = 0) {
        self.id = id
        self.result = result
        self.httpStatus = httpStatus
        self.bodyBytesReceived = bodyBytesReceived
    }
}
