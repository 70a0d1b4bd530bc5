import Foundation
import VODAppBase
import VODAppDelivery
import VODAppReport

/// Renders a dry run for people: what each item would come to, then what would be removed.
/// Scripts get `DeliveryPreview.json`.
public enum PreviewRenderer {
    public static func summary(_ preview: DeliveryPreview) -> String {
        var lines = ["dry run: nothing was requested or written in \(preview.directory)"]
        for item in preview.items {
            let name = ReportRenderer.printable(item.title ?? item.key)
            let what: String
            switch item.action {
            case .fetch:
                what = "would fetch     \(name) <- \(ReportRenderer.printable(item.url ?? ""))"
            case .resume:
                what = "would resume    \(name) from \(ByteSize.format(item.bytes ?? 0)) kept <- \(ReportRenderer.printable(item.url ?? ""))"
            case .present:
                what = "already present \(name) -> \(item.path ?? "")"
            case .skip:
                what = "would skip      \(name): \(ReportRenderer.printable(item.reason ?? ""))"
            case .invalid:
                let key = "key \"\(ReportRenderer.printable(item.key))\""
                what = "invalid         \(item.title.map { "\(ReportRenderer.printable($0)) (\(key))" } ?? key): "
                    + ReportRenderer.printable(item.reason ?? "")
            }
            lines.append("  " + what)
        }
        if !preview.syncRemovals.isEmpty {
            let when = preview.syncWaitsFor.isEmpty ? "" : ", once the push's \(count(preview.syncWaitsFor.count, "item")) to come are in DIR"
            lines.append("  --sync would remove \(files(preview.syncRemovals))\(when):")
            lines += preview.syncRemovals.map(removal)
        }
        if !preview.removals.isEmpty {
            lines.append("  retention would remove \(files(preview.removals)), as DIR stands (what this delivery fetches may make it remove more):")
            lines += preview.removals.map(removal)
        }
        lines += preview.warnings.map { "  warning: " + ReportRenderer.printable($0) }
        let counts = DeliveryPreview.Item.Action.allCases.compactMap { action -> String? in
            let count = preview.items.count { $0.action == action }
            return count > 0 ? "\(count) \(label(action))" : nil
        }
        lines.append("dry run: " + (counts.isEmpty ? "empty playlist" : counts.joined(separator: ", ")))
        return lines.joined(separator: "\n")
    }

    private static func removal(_ file: RemovedFile) -> String {
        "    \(ReportRenderer.printable(file.title ?? file.key)) (\(ByteSize.format(file.bytes))): \(ReportRenderer.printable(file.reason))"
    }

    private static func files(_ removed: [RemovedFile]) -> String {
        "\(count(removed.count, "file")) (\(ByteSize.format(removed.reduce(Int64(0)) { $0 + $1.bytes })))"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    private static func label(_ action: DeliveryPreview.Item.Action) -> String {
        switch action {
        case .fetch: "to fetch"
        case .resume: "to resume"
        case .present: "already present"
        case .skip: "to skip"
        case .invalid: "invalid"
        }
    }
}
