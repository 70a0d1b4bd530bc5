import VODAppMediaDirectory
import VODAppStore

/// A file retention removed from DIR: one of vodapp's own, placed by an earlier delivery, or
/// the partial body an earlier delivery kept out of sight for resuming.
public struct RemovedFile: Sendable, Equatable, Encodable {
    public let key: String
    public let title: String?
    public let path: String
    public let bytes: Int64
    /// Which limit it was removed for, in words: "older than 7 days (--keep-days 7)".
    public let reason: String
    /// A partial body in DIR's work area, not a file of DIR's.
    public let partial: Bool

    public init(key: String, title: String?, path: String, bytes: Int64, reason: String, partial: Bool = false) {
        self.key = key
        self.title = title
        self.path = path
        self.bytes = bytes
        self.reason = reason
        self.partial = partial
    }

    /// `item`'s kept partial body, removed for `reason`: worded the same whether a delivery
    /// removed it or a dry run says it would.
    package init(_ partial: MediaDirectory.KeptPartial, of item: StoredItem, reason: String) {
        self.init(key: item.key, title: item.title, path: partial.path, bytes: partial.bytes, reason: "a partial body, \(reason)",
                  partial: true)
    }
}
