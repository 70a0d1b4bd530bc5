import VODAppBase

/// What vodapp keeps of its own files in DIR, and whether what was removed comes back.
///
/// After each delivery, files of earlier deliveries are removed, oldest first, until every limit
/// holds; a file is vodapp's only when the store says an earlier delivery placed it there and it
/// still has the size it was placed with. Whatever was removed, by retention or by the user, is
/// remembered: a later push naming it does not fetch it again (`removed`), unless
/// `refetchRemoved` or `vodapp forget KEY`.
public struct RetentionPolicy: Sendable, Equatable {
    /// Files older than this many days are removed (`--keep-days`). A file's age is its
    /// modification time: when vodapp wrote it, unless the user touched it since.
    public var keepDays: Int?
    /// vodapp's files together may take at most this many bytes (`--max-total`).
    public var maximumTotal: Int64?
    /// DIR's file system keeps at least this many bytes free (`--min-free`).
    public var minimumFree: Int64?
    /// Fetch an item again even though its file was removed (`--refetch-removed`).
    public var refetchRemoved = false

    public init(keepDays: Int? = nil, maximumTotal: Int64? = nil, minimumFree: Int64? = nil, refetchRemoved: Bool = false) {
        self.keepDays = keepDays
        self.maximumTotal = maximumTotal
        self.minimumFree = minimumFree
        self.refetchRemoved = refetchRemoved
    }

    /// Whether any limit is set, so that a delivery has anything to remove.
    public var removesFiles: Bool {
        keepDays != nil || maximumTotal != nil || minimumFree != nil
    }
}
