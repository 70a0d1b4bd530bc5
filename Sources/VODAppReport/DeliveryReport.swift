import VODAppBase
import VODAppNotify

/// The result of handling one payload: what `--json` prints and what the exit code is made from.
public struct DeliveryReport: Sendable, Equatable, Encodable {
    /// The original app's background-fetch results.
    public enum Result: String, Sendable, Encodable {
        case newData, noData, failed
    }

    public let elapsedSeconds: Double
    public let budgetSeconds: Double
    public let directory: String
    public internal(set) var items: [ItemReport]
    public let notification: NotificationReport
    /// The push's alert (`aps.alert`), shown before the transfers; nil, and not in the JSON, when
    /// the push had none.
    public let alert: NotificationReport?
    /// The files retention removed after this delivery (`--keep-days`, `--max-total`,
    /// `--min-free`): older ones, never this delivery's. In the JSON only when there are some.
    public internal(set) var removed: [RemovedFile]
    /// Whether `directory` is left out of the JSON: see `redacted`.
    var withholdsDirectory = false

    public init(elapsed: Duration, budget: Duration, directory: String, items: [ItemReport], notification: NotificationReport,
                alert: NotificationReport? = nil, removed: [RemovedFile] = []) {
        // Milliseconds are as precise as a wall-clock report of a network run can honestly be.
        elapsedSeconds = (elapsed.inSeconds * 1000).rounded() / 1000
        budgetSeconds = budget.inSeconds
        self.directory = directory
        self.items = items
        self.notification = notification
        self.alert = alert
        self.removed = removed
    }

    public func count(_ status: ItemReport.Status) -> Int {
        items.count { $0.status == status }
    }

    public var result: Result {
        if count(.downloaded) > 0 { return .newData }
        if count(.failed) + count(.timedOut) > 0 { return .failed }
        return .noData
    }

    /// The report as one line of JSON: what `--json` prints and what the HTTP endpoint answers.
    public var json: String {
        CompactJSON.text(self, fallback: #"{"result":"failed","error":"the report could not be encoded"}"#)
    }

    private enum CodingKeys: String, CodingKey {
        case result, elapsedSeconds, budgetSeconds, directory, items, notification, alert, removed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(result, forKey: .result)
        try container.encode(elapsedSeconds, forKey: .elapsedSeconds)
        try container.encode(budgetSeconds, forKey: .budgetSeconds)
        if !withholdsDirectory { try container.encode(directory, forKey: .directory) }
        try container.encode(items, forKey: .items)
        try container.encode(notification, forKey: .notification)
        try container.encodeIfPresent(alert, forKey: .alert)
        if !removed.isEmpty { try container.encode(removed, forKey: .removed) }
    }
}
