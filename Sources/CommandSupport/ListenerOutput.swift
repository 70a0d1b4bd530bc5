import Foundation
import Logging
import NIOConcurrencyHelpers
import VODAppBase
import VODAppDelivery
import VODAppListen
import VODAppReport

/// What `vodapp listen` prints on stdout: a line when it is ready, then every delivery's report,
/// for people or (with `--json`) one JSON object per line; and on stderr, through the logger, a
/// notice as each delivery ends (an error when it could not run).
///
/// Lines are written whole and unbuffered, one at a time, so a script reading a pipe sees each
/// as it happens and never two interleaved.
public final class ListenerOutput: Sendable {
    private let json: Bool
    private let logger: Logger
    private let lock = NIOLockedValueBox(())

    public init(json: Bool, logger: Logger) {
        self.json = json
        self.logger = logger
    }

    public func ready(_ endpoints: [Listener.Endpoint]) {
        if json {
            write(Self.encode(Ready(listening: endpoints.map(\.description))))
        } else {
            write("listening on " + endpoints.map(\.description).joined(separator: " and "))
        }
    }

    public func delivered(_ ticket: DeliveryTicket, _ outcome: DeliveryTicket.Outcome) {
        switch outcome {
        case .success(let report):
            logger.notice("delivered", metadata: [
                "delivery": "\(ticket.id)", "from": "\(ticket.origin)", "result": "\(report.result.rawValue)",
                "downloaded": "\(report.count(.downloaded))", "deferred": "\(report.count(.deferred))",
                "failed": "\(report.count(.failed) + report.count(.timedOut))", "elapsed": "\(report.elapsedSeconds)",
            ])
        case .failure(let error):
            logger.error("delivery failed: \(error)", metadata: ["delivery": "\(ticket.id)", "from": "\(ticket.origin)"])
        }
        switch (outcome, json) {
        case (.success(let report), true):
            write(Self.encode(Delivered(delivery: ticket.id, from: ticket.origin.description, report: report, error: nil)))
        case (.failure(let error), true):
            write(Self.encode(Delivered(delivery: ticket.id, from: ticket.origin.description, report: nil, error: error.description)))
        case (.success(let report), false):
            // The origin is the network's (an MQTT topic, a URL): no control or reordering
            // character reaches the terminal.
            write("delivery \(ticket.id) from \(ReportRenderer.printable(ticket.origin.description)):\n" + ReportRenderer.summary(report))
        case (.failure(let error), false):
            write("delivery \(ticket.id) from \(ReportRenderer.printable(ticket.origin.description)): \(error)")
        }
    }

    private struct Ready: Encodable {
        let listening: [String]
    }

    private struct Delivered: Encodable {
        let delivery: String
        let from: String
        let report: DeliveryReport?
        let error: String?
    }

    private static func encode(_ value: some Encodable) -> String {
        CompactJSON.text(value, fallback: #"{"error":"unencodable output"}"#)
    }

    private func write(_ line: String) {
        lock.withLockedValue { _ in
            StandardOutput.write(line)
        }
    }
}
