import Logging
import NIOConcurrencyHelpers
import Testing
@testable import CommandSupport

/// What servers send reaches log lines (an ETag in a reason, a URL): on a terminal an escape
/// sequence in one could retitle or clear it, so the lines vodapp logs carry none.
struct SanitizingLogHandlerTests {
    /// Keeps what it is given, to be read back.
    struct Capture: LogHandler {
        let lines: NIOLockedValueBox<[String]>
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.withLockedValue { $0.append(([event.message.description] + fields).joined(separator: " ")) }
        }
    }

    @Test func controlCharactersFromServersNeverReachTheTerminal() {
        let lines = NIOLockedValueBox<[String]>([])
        let logger = Logger(label: "test") { _ in SanitizingLogHandler(wrapped: Capture(lines: lines)) }
        logger.info("failed \u{1B}]0;owned\u{07}", metadata: ["reason": "ETag \"\u{1B}[2J\"", "list": .array(["\u{9B}x"])])
        let line = lines.withLockedValue { $0.joined() }
        #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(line.debugDescription)")
        #expect(line.contains("failed ?]0;owned?") && line.contains("ETag \"?[2J\""), "\(line)")
    }
}
