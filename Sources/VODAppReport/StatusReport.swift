import Foundation
import VODAppBase
import VODAppDeliveryPolicy
import VODAppMediaDirectory
import VODAppStore

/// `vodapp status`: what DIR holds, what is partial or failed, and the last deliveries.
public struct StatusReport: Sendable, Encodable {
    public let directory: String
    public let items: [StoredItem]
    public let deliveries: [DeliveryLogEntry]
    /// The partial items whose kept data are stream (HLS or DASH) segments, whole or cut: the next
    /// delivery fetches the rest, whatever validators the store has (none: each segment keeps its own).
    public private(set) var keepsSegments: Set<String> = []
    /// When the store was read: what "due now" is measured against.
    public let readAt = Date()

    private enum CodingKeys: String, CodingKey {
        case directory, items, deliveries
    }

    /// Why the status cannot be read: the store cannot be opened or read.
    public struct Unreadable: Error, Sendable, CustomStringConvertible {
        public let directory: String
        public let reason: String
        /// The work area is not the running user's own (`WorkAreaOwnership`): nothing was read.
        public var isForeign = false

        public var description: String { "cannot read the state of \(directory): \(reason)" }
    }

    /// Reads DIR's store, never writing to DIR; a DIR that has none yet has an empty status.
    public init(directory: String, deliveries count: Int = 10) throws(Unreadable) {
        try Self.checkOwnership(of: directory)
        do {
            try self.init(reading: directory, deliveries: count)
        } catch {
            throw Unreadable(directory: directory, reason: StateStoreError.oneLine(error))
        }
    }

    /// Refuses a work area that is not the running user's own before anything of it is read.
    /// A store it may not read is said to be so: SQLite would say only that it cannot open it.
    static func checkOwnership(of directory: String) throws(Unreadable) {
        if let refusal = WorkAreaOwnership.refusal(ofWorkArea: directory + "/.vodapp") {
            throw Unreadable(directory: directory, reason: refusal, isForeign: true)
        }
        let database = directory + "/.vodapp/state.sqlite"
        var info = stat()
        if lstat(database, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(database, R_OK) != 0 {
            throw Unreadable(directory: directory, reason: "\(database): \(String(cString: strerror(errno)))")
        }
    }

    private init(reading directory: String, deliveries count: Int) throws {
        self.directory = directory
        guard try StateStore.exists(in: directory) else {
            items = []
            deliveries = []
            return
        }
        let store = try StateStore(directory: directory, readOnly: true)
        let media = MediaDirectory(path: directory)
        var segmentKeys: Set<String> = []
        items = try store.allItems().map { item in
            var item = item
            switch item.state {
            case .partial:
                // A partial's bytes are what its file (or its folder of segments) holds now: the
                // store hears of a transfer when its body begins, and a process killed later wrote
                // more than it could record.
                let kept = media.keptPartial(key: item.key)
                item.bytes = kept?.bytes ?? 0
                if kept?.names.contains(where: { $0.hasSuffix(".hls") }) == true { segmentKeys.insert(item.key) }
            case .fetched, .removed:
                // The store says what was placed; DIR says what is there. A file the user removed
                // is shown as removed, as the next delivery naming it will record it, and one put
                // back is shown in DIR.
                let found = item.asFound(in: media)
                if item.state == .fetched, found.state == .removed {
                    // When the user removed it is unknown (status is the first to see it gone,
                    // and "now" would change at every call): the time shown is the last one
                    // known, when it was placed, and said to be that.
                    let placedAt = item.updatedAt
                    item = found
                    item.error = StoredItem.removedByUser + " since it was placed"
                    item.updatedAt = placedAt
                } else {
                    item = found
                }
            case .failed, .tooLarge, .deferred:
                break
            }
            return item
        }
        keepsSegments = segmentKeys
        deliveries = try store.lastDeliveries(count)
    }

    /// The status as one JSON object, dates in ISO 8601, that a terminal shows harmlessly.
    public var json: String {
        Self.escapingTerminalControls(CompactJSON.text(self, fallback: #"{"error":"the status could not be encoded"}"#))
    }

    /// `json` with every control character and bidirectional override written as a `\u`
    /// escape. The encoder escapes those below U+0020 but writes DEL, the C1 controls (U+009B
    /// is a CSI to some terminals) and the overrides as they are; in JSON they can only be
    /// inside strings, where the escape is the same character, so the value is unchanged.
    static func escapingTerminalControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                escaped.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || UntrustedText.isBidirectionalFormatting(scalar)
    }
}

extension StatusReport.Unreadable: ExitStatusProviding {
    /// 73 for a store that is not vodapp's (or not the user's), 66 for one that cannot be read.
    public var exitStatus: ExitStatus { isForeign ? .directoryUnusable : .payloadUnreadable }
}
