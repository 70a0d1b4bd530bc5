import Foundation

/// `vodapp status`: what DIR holds, what is partial or failed, and the last deliveries.
public struct StatusReport: Sendable, Encodable {
    public let directory: String
    public let items: [StoredItem]
    public let deliveries: [DeliveryLogEntry]

    /// Reads DIR's store; a DIR that has none yet has an empty status (and gets no store).
    public init(directory: String, deliveries count: Int = 10) throws {
        self.directory = directory
        guard FileManager.default.fileExists(atPath: directory + "/.vodapp/state.sqlite") else {
            items = []
            deliveries = []
            return
        }
        let store = try StateStore(directory: directory)
        // A partial's bytes are what its file holds now: the store hears of a transfer when its
        // body begins, and a process killed later wrote more than it could record.
        let media = MediaDirectory(path: directory)
        items = try store.allItems().map { item in
            guard item.state == .partial else { return item }
            var item = item
            if case .file(let bytes) = SafeFile.inspect(media.temporaryPath(key: item.key)) { item.bytes = bytes } else { item.bytes = 0 }
            return item
        }
        deliveries = try store.lastDeliveries(count)
    }

    /// The status as one JSON object, dates in ISO 8601.
    public var json: String {
        CompactJSON.text(self, fallback: #"{"error":"the status could not be encoded"}"#)
    }

    /// The status for people: one section per state, then the deliveries, newest first.
    public var summary: String {
        var lines = ["\(directory)"]
        func section(_ title: String, _ state: StoredItem.State, _ line: (StoredItem) -> String) {
            let matching = items.filter { $0.state == state }
            guard !matching.isEmpty else { return }
            lines.append("\(title) (\(matching.count)):")
            lines += matching.map { "  " + line($0) }
        }
        func name(_ item: StoredItem) -> String {
            ReportRenderer.printable(item.title ?? item.key)
        }
        section("In DIR", .fetched) { "\(name($0)) (\(ByteSize.format($0.bytes ?? 0))) -> \($0.path ?? "?"), \(Self.when($0.updatedAt))" }
        section("Partial, resumed by the next delivery", .partial) { item in
            let kept = "\(name(item)): \(ByteSize.format(item.bytes ?? 0)) kept, \(item.validator == nil ? "no validator: starts over" : "resumable")"
            // Why the last attempt stopped, when it was not simply cut: a refusal for good is news.
            guard item.final, let error = item.error else { return kept }
            return kept + "; the last attempt failed for good: \(ReportRenderer.printable(error))"
        }
        section("Failed", .failed) { item in
            let next = item.final ? ", delivering again will not help"
                : item.nextAttemptAt.map { ", next try after \(Self.when($0))" } ?? ""
            return "\(name(item)): \(ReportRenderer.printable(item.error ?? "?")) (attempt \(item.attempts)\(next))"
        }
        section("Too large", .tooLarge) { "\(name($0)): \(ReportRenderer.printable($0.error ?? ""))" }
        if items.isEmpty { lines.append("Nothing recorded yet.") }
        if !deliveries.isEmpty {
            lines.append("Last deliveries:")
            for entry in deliveries {
                let origin = entry.origin.map { " " + ReportRenderer.printable($0) } ?? ""
                let note = entry.note.map { " (\(ReportRenderer.printable($0)))" } ?? ""
                lines.append("  \(Self.when(entry.startedAt))  \(entry.source)\(origin): \(entry.result), \(entry.items) item\(entry.items == 1 ? "" : "s"), "
                             + "\(entry.downloaded) downloaded, \(entry.failed) failed or timed out, "
                             + String(format: "%.2f s", entry.elapsedSeconds) + note)
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func when(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
