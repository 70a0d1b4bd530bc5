import VODAppBase

/// What a delivery of a payload would do now, found without a request or a write
/// (`Delivery.preview`, `--dry-run`).
public struct DeliveryPreview: Sendable, Encodable {
    /// What would happen to one item of the payload.
    public struct Item: Sendable, Equatable, Encodable {
        public enum Action: String, Sendable, Encodable, CaseIterable {
            /// Requested from its start.
            case fetch
            /// Requested from where a kept partial body ends (`bytes`).
            case resume
            /// Its file is in DIR (`path`): no request.
            case present
            /// Not requested (`reason`): removed by the user, known too large, refused.
            case skip
            /// Not an item at all (`reason`); the run would exit 65.
            case invalid
        }

        public let key: String
        public let title: String?
        public let url: String?
        public let action: Action
        public let path: String?
        public let bytes: Int64?
        public let reason: String?

        package init(key: String, title: String?, url: String?, action: Action, path: String? = nil, bytes: Int64? = nil, reason: String? = nil) {
            self.key = key
            self.title = title
            self.url = url
            self.action = action
            self.path = path
            self.bytes = bytes
            self.reason = reason
        }

        /// An item a delivery would settle without a request, as its report would say.
        package init(_ report: ItemReport) {
            switch report.status {
            case .alreadyPresent:
                self.init(key: report.key, title: report.title, url: report.url, action: .present, path: report.path, bytes: report.bytes)
            case .invalid:
                self.init(key: report.key, title: report.title, url: report.url, action: .invalid, reason: report.error)
            default:
                self.init(key: report.key, title: report.title, url: report.url, action: .skip, reason: report.error)
            }
        }
    }

    public let directory: String
    public let items: [Item]
    /// What retention would remove, as DIR stands: what the delivery fetches may make it remove
    /// more.
    public let removals: [RemovedFile]
    /// What `--sync` would remove once every item of the push is in DIR.
    public let syncRemovals: [RemovedFile]
    /// The push's items `--sync` would wait for before removing anything.
    public let syncWaitsFor: [String]
    /// Limits retention could not meet, in words.
    public let warnings: [String]

    package init(directory: String, items: [Item], removals: [RemovedFile], syncRemovals: [RemovedFile], syncWaitsFor: [String],
                 warnings: [String]) {
        self.directory = directory
        self.items = items
        self.removals = removals
        self.syncRemovals = syncRemovals
        self.syncWaitsFor = syncWaitsFor
        self.warnings = warnings
    }

    public var hasInvalidItems: Bool { items.contains { $0.action == .invalid } }

    /// The preview as one line of JSON, `dryRun` true, for scripts.
    public var json: String {
        CompactJSON.text(self, fallback: #"{"dryRun":true,"error":"the preview could not be encoded"}"#)
    }

    private enum CodingKeys: String, CodingKey {
        case dryRun, directory, items, removals, syncRemovals, syncWaitsFor, warnings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(true, forKey: .dryRun)
        try container.encode(directory, forKey: .directory)
        try container.encode(items, forKey: .items)
        try container.encode(removals, forKey: .removals)
        try container.encode(syncRemovals, forKey: .syncRemovals)
        try container.encode(syncWaitsFor, forKey: .syncWaitsFor)
        try container.encode(warnings, forKey: .warnings)
    }
}
