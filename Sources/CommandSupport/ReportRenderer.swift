import Foundation
import VODAppBase
import VODAppDelivery
import VODAppReport

/// Renders a report for people: a short summary. Scripts get `DeliveryReport.json`.
public enum ReportRenderer {
    /// One line per item, then a totals line.
    public static func summary(_ report: DeliveryReport) -> String {
        var lines: [String] = []
        for item in report.items {
            let status = label(item.status).padding(toLength: 15, withPad: " ", startingAt: 0)
            let name = printable(item.title ?? item.key)
            switch item.status {
            case .downloaded:
                // The stream's choice, when it had one: which quality and which language came.
                let chosen = item.variant.map { ", " + printable($0.description) } ?? ""
                lines.append("  \(status) \(name) (\(ByteSize.format(item.bytes ?? 0))\(chosen)) -> \(item.path ?? "")")
                // Its subtitles: those beside it in one line, each that is not with why.
                let subtitles = item.subtitles ?? []
                let placed = subtitles.filter { $0.error == nil }.map { printable($0.language) }
                if !placed.isEmpty { lines.append("      with subtitles: \(placed.joined(separator: ", "))") }
                for missing in subtitles {
                    if let error = missing.error { lines.append("      without the \(printable(missing.language)) subtitles: \(printable(error))") }
                }
            case .alreadyPresent:
                lines.append("  \(status) \(name) -> \(item.path ?? "")")
            case .invalid:
                // The key is what the server's author must fix: the title alone hid which item it
                // was (issue 28's new-user trial).
                let key = "key \"\(printable(item.key))\""
                lines.append("  \(status) \(item.title.map { "\(printable($0)) (\(key))" } ?? key): \(printable(item.error ?? ""))")
            default:
                let final = item.final == true ? " (delivering again will not help)" : ""
                lines.append("  \(status) \(name): \(printable(item.error ?? ""))\(final)")
            }
        }
        var counts: [String] = []
        for status in ItemReport.Status.allCases {
            let count = report.count(status)
            if count > 0 { counts.append("\(count) \(label(status))") }
        }
        if !report.removed.isEmpty {
            let bytes = report.removed.reduce(Int64(0)) { $0 + $1.bytes }
            // Retention's and --sync's alike: each line says which asked.
            lines.append("  removed \(report.removed.count) file\(report.removed.count == 1 ? "" : "s") of earlier deliveries (\(ByteSize.format(bytes))):")
            lines += report.removed.map { "    \(printable($0.title ?? $0.key)): \(printable($0.reason))" }
        }
        let totals = counts.isEmpty ? "empty playlist" : counts.joined(separator: ", ")
        lines.append("\(report.result.rawValue): \(totals) in \(Self.hundredths(report.elapsedSeconds)) s "
                     + "(budget \(Self.shortest(report.budgetSeconds)) s), in \(report.directory)")
        return lines.joined(separator: "\n")
    }

    /// `seconds` with two decimals (`%.2f`), written without Foundation's `String(format:)`,
    /// whose first use cost every run a third of a millisecond.
    static func hundredths(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e15 else { return "\(seconds)" }
        let whole = Int64((seconds * 100).rounded())
        let fraction = whole % 100
        return "\(whole / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `seconds` as briefly as it reads back (`30`, `0.5`, `2.25`), as `%g` wrote a budget.
    static func shortest(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int64(seconds))" : "\(seconds)"
    }

    private static func label(_ status: ItemReport.Status) -> String {
        switch status {
        case .downloaded: "downloaded"
        case .alreadyPresent: "already present"
        case .tooLarge: "too large"
        case .timedOut: "timed out"
        case .failed: "failed"
        case .invalid: "invalid"
        case .removed: "removed"
        case .deferred: "deferred"
        }
    }

    /// Keys and titles come from the network; control characters must not reach a terminal.
    public static func printable(_ text: String) -> String {
        UntrustedText.sanitized(text, limit: 200, replacingControlsWith: "?")
    }
}
