/// A file retention removed from DIR: one of vodapp's own, placed by an earlier delivery.
public struct RemovedFile: Sendable, Equatable, Encodable {
    public let key: String
    public let title: String?
    public let path: String
    public let bytes: Int64
    /// Which limit it was removed for, in words: "older than 7 days (--keep-days 7)".
    public let reason: String
}
