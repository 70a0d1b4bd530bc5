/// What the transfers are doing at one moment, for a progress display.
public struct TransferSnapshot: Sendable, Equatable {
    public struct Transfer: Sendable, Equatable {
        public let id: String
        /// Bytes in the item's file, resumed bytes included.
        public let bytes: Int64
        /// The whole item's size, when a response has said it.
        public let total: Int64?
    }

    /// Transfers running now, in the order they started.
    public var active: [Transfer] = []
    /// Requests that have ended, however they ended.
    public var ended = 0
    /// The sizes of the bodies that completed.
    public var completedBytes: Int64 = 0
}
