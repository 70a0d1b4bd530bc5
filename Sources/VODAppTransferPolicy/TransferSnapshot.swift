/// What the transfers are doing at one moment, for a progress display.
public struct TransferSnapshot: Sendable, Equatable {
    public struct Transfer: Sendable, Equatable {
        public let id: String
        /// Bytes in the item's file, resumed bytes included.
        public let bytes: Int64
        /// The whole item's size, when a response has said it.
        public let total: Int64?

        public init(id: String, bytes: Int64, total: Int64?) {
            self.id = id
            self.bytes = bytes
            self.total = total
        }
    }

    /// Transfers running now, in the order they started.
    public var active: [Transfer] = []
    /// Requests that have ended, however they ended.
    public var ended = 0
    /// The sizes of the bodies that completed.
    public var completedBytes: Int64 = 0

    public init(active: [Transfer] = [], ended: Int = 0, completedBytes: Int64 = 0) {
        self.active = active
        self.ended = ended
        self.completedBytes = completedBytes
    }
}
