@testable import CommandSupport
import CommandSupport
import Logging
import NIOConcurrencyHelpers
import Testing
import TestSupport

/// What servers send reaches log lines (an ETag in a reason, a URL): on a terminal an escape
/// sequence in one could retitle or clear it, so the lines vodapp logs carry none.
struct SanitizingLogHandlerTests {
    @Test func controlCharactersFromServersNeverReachTheTerminal() {
        let lines = NIOLockedValueBox<[String]>([])
        let logger = Logger(label: "test") { _ in SanitizingLogHandler(wrapped: CapturingLogHandler(into: lines)) }
        logger.info("failed \u{1B}]0;owned\u{07}", metadata: ["reason": "ETag \"\u{1B}[2J\"", "list": .array(["\u{9B}x"])])
        let line = lines.withLockedValue { $0.joined() }
        #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(line.debugDescription)")
        #expect(line.contains("failed ?]0;owned?") && line.contains("ETag \"?[2J\""), "\(line)")
    }
}
