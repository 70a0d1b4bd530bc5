/// One body to fetch into a file that nobody else can see yet.
public struct TransferRequest: Sendable, Equatable {
    /// Identifies the request in outcomes; the playlist key.
    public let id: String
    public let url: MediaURL
    /// Where the body is streamed; created only once body bytes arrive.
    public let temporaryPath: String
    /// Bodies strictly larger are dropped.
    public let maximumSize: Int64

    public init(id: String, url: MediaURL, temporaryPath: String, maximumSize: Int64) {
        self.id = id
        self.url = url
        self.temporaryPath = temporaryPath
        self.maximumSize = maximumSize
    }
}
