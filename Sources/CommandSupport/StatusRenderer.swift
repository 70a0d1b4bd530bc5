import Foundation
import VODAppBase
import VODAppDelivery
import VODAppDeliveryPolicy
import VODAppReport
import VODAppStore

/// Renders `vodapp status` for people. Scripts get `StatusReport.json`.
///
/// Every string comes from the store, which anyone who can write DIR can have made: each is
/// made safe for a terminal (no escape sequence, no bidirectional override), keys and paths too.
public enum StatusRenderer {
    /// The status for people: one section per state, then the deliveries, newest first.
    public static func summary(_ status: StatusReport) -> String {
        let items = status.items
        let deliveries = status.deliveries
        var lines = [printablePath(status.directory)]
        func section(_ title: String, _ state: StoredItem.State, _ line: (StoredItem) -> String) {
            let matching = items.filter { $0.state == state }
            guard !matching.isEmpty else { return }
            lines.append("\(title) (\(matching.count)):")
            lines += matching.map { "  " + line($0) }
        }
        func name(_ item: StoredItem) -> String {
            printable(item.title ?? item.key)
        }
        section("In DIR", .fetched) { "\(name($0)) (\(ByteSize.format($0.bytes ?? 0))) -> \(printablePath($0.path ?? "?")), \(when($0.updatedAt))" }
        section("Partial, resumed by the next delivery (a listener retries on its own)", .partial) { item in
            let how = status.keepsSegments.contains(item.key) ? "stream segments, whole or cut: the next delivery fetches the rest"
                : item.validator == nil ? "no validator: starts over" : "resumable"
            let kept = "\(name(item)): \(ByteSize.format(item.bytes ?? 0)) kept, \(how)"
            // Why the last attempt stopped, when it was not simply cut: a refusal for good is news.
            guard item.final, let error = item.error else { return kept + nextTry(item, now: status.readAt) }
            return kept + "; the last attempt failed for good: \(printable(error))"
        }
        section("Failed", .failed) { item in
            let next = item.final ? ", delivering again will not help" : nextTry(item, now: status.readAt)
            return "\(name(item)): \(printable(item.error ?? "?")) (attempt \(item.attempts)\(next))"
        }
        section("Deferred (a metered connection or power saver), fetched by a delivery (a listener's own retry included) when neither holds them back", .deferred) { item in
            "\(name(item)): \(printable(item.error ?? "deferred")), \(when(item.updatedAt))"
        }
        section("Too large", .tooLarge) { "\(name($0)): \(printable($0.error ?? ""))" }
        section("Removed (by you: not fetched again until 'vodapp forget KEY'; by vodapp: fetched again when a push names it)", .removed) { item in
            "\(name(item)) [\(printable(item.key))]: \(printable(item.error ?? "removed")), \(when(item.updatedAt))"
        }
        if items.isEmpty {
            lines.append(deliveries.isEmpty ? "Nothing recorded yet." : "No item recorded yet.")
        } else {
            // The store's size, and what keeps it small.
            let days = Int(StateStore.forgetAfter / 86_400)
            lines.append("The store holds \(items.count) item record\(items.count == 1 ? "" : "s"); one that holds no file is forgotten "
                         + "when no push has named it for \(days) days.")
        }
        if !deliveries.isEmpty {
            lines.append("Last deliveries:")
            for entry in deliveries {
                let origin = entry.origin.map { " " + printable($0) } ?? ""
                let note = entry.note.map { " (\(printable($0)))" } ?? ""
                lines.append("  \(when(entry.startedAt))  \(printable(entry.source))\(origin): \(printable(entry.result)), \(entry.items) item\(entry.items == 1 ? "" : "s"), "
                             + "\(entry.downloaded) downloaded, \(entry.failed) failed or timed out, "
                             + String(format: "%.2f s", entry.elapsedSeconds) + note)
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func printable(_ text: String) -> String {
        ReportRenderer.printable(text)
    }

    /// When a listener tries the item again on its own (a push or a poll takes it at once):
    /// the time its backoff ends, or now.
    private static func nextTry(_ item: StoredItem, now: Date) -> String {
        if item.unendedStarts >= RetrySchedule.crashesTolerated {
            return ", not retried on its own: \(item.unendedStarts) deliveries of it never ended (the process died); a push tries it again"
        }
        guard let next = item.nextAttemptAt else { return "" }
        return next <= now ? ", next try due now" : ", next try after \(when(next))"
    }

    /// A path, whole: longer than a title may be.
    private static func printablePath(_ path: String) -> String {
        UntrustedText.sanitized(path, limit: 4_096, replacingControlsWith: "?")
    }

    private static func when(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
