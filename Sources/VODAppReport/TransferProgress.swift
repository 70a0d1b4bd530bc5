import VODAppBase
import VODAppTransferPolicy

/// Whoever shows a delivery's transfers while they run: a terminal's progress display, which is
/// the command line's to draw, not this library's.
public protocol TransferProgress: Sendable {
    /// The transfers of `titles` (item key to title) begin, within `budget`.
    func begin(titles: [String: String], budget: Budget)
    /// The latest state of the transfers, from the transfer thread.
    func update(_ snapshot: TransferSnapshot)
    /// The transfers are over.
    func end()
}
