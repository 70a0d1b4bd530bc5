/// The result of handling one payload: what `--json` prints and what the exit code is made from.
public struct DeliveryReport: Sendable, Equatable, Encodable {
    /// The original app's background-fetch results.
    public enum Result: String, Sendable, Encodable {
        case newData, noData, failed
    }

    public let elapsedSeconds: Double
    public let budgetSeconds: Double
    public let directory: String
    public let items: [ItemReport]
    public let notification: NotificationReport

    public init(elapsed: Duration, budget: Duration, directory: String, items: [ItemReport], notification: NotificationReport) {
        // Milliseconds are as precise as a wall-clock report of a network run can honestly be.
        elapsedSeconds = (elapsed.inSeconds * 1000).rounded() / 1000
        budgetSeconds = budget.inSeconds
        self.directory = directory
        self.items = items
        self.notification = notification
    }

    public func count(_ status: ItemReport.Status) -> Int {
        items.count { $0.status == status }
    }

    public var result: Result {
        if count(.downloaded) > 0 { return .newData }
        if count(.failed) + count(.timedOut) > 0 { return .failed }
        return .noData
    }

    /// 0 when every valid item is in DIR or was dropped as too large; 75 (EX_TEMPFAIL) when one
    /// failed or timed out in a way that delivering again later may fix, which scripts should
    /// do; otherwise 69 (EX_UNAVAILABLE) when an item failed for good (a 404, a certificate that
    /// does not verify), which only a change of payload or server fixes.
    public var exitStatus: ExitStatus {
        let failures = items.filter { $0.status == .failed || $0.status == .timedOut }
        if failures.contains(where: { $0.final != true }) { return .temporaryFailure }
        return failures.isEmpty ? .success : .unavailable
    }

    private enum CodingKeys: String, CodingKey {
        case result, elapsedSeconds, budgetSeconds, directory, items, notification
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(result, forKey: .result)
        try container.encode(elapsedSeconds, forKey: .elapsedSeconds)
        try container.encode(budgetSeconds, forKey: .budgetSeconds)
        try container.encode(directory, forKey: .directory)
        try container.encode(items, forKey: .items)
        try container.encode(notification, forKey: .notification)
    }
}
