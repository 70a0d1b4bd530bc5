/// One request the sample server answered, for tests to see what a client asked for and got.
public struct SampleRequestRecord: Sendable, Equatable {
    /// The request target, with its query.
    public let target: String
    public let method: String
    public let headers: [String: String]
    public let started: ContinuousClock.Instant
    /// When the last body byte was handed to the socket, or the connection ended.
    public internal(set) var ended: ContinuousClock.Instant?
    /// Body bytes handed to the socket (some may still sit in kernel buffers when the client quits).
    public internal(set) var bodyBytesSent: Int64 = 0

    /// The value of a request header, by lowercased name.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
