@testable import CommandSupport
import CommandSupport
import Logging
import NIOConcurrencyHelpers
import Testing
import UnitTestSupport

/// What servers send reaches log lines (an ETag in a reason, a URL): on a terminal an escape
/// sequence in one could retitle or clear it, so the lines vodapp logs carry none.
struct SanitizingLogHandlerTests {
    private func logger(into lines: NIOLockedValueBox<[String]>, level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "test") { _ in SanitizingLogHandler(wrapped: CapturingLogHandler(into: lines)) }
        logger.logLevel = level
        return logger
    }

    @Test func controlCharactersFromServersNeverReachTheTerminal() {
        let lines = NIOLockedValueBox<[String]>([])
        let logger = logger(into: lines)
        logger.info("failed \u{1B}]0;owned\u{07}", metadata: ["reason": "ETag \"\u{1B}[2J\"", "list": .array(["\u{9B}x"])])
        let line = lines.withLockedValue { $0.joined() }
        #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(line.debugDescription)")
        #expect(line.contains("failed ?]0;owned?") && line.contains("ETag \"?[2J\""), "\(line)")
    }

    /// A bidirectional override would make a title read backwards on the terminal; a nested
    /// dictionary and a value logged as `\(x)` are cleaned as strings are.
    @Test func bidirectionalOverridesAndNestedValuesAreCleanedToo() {
        let lines = NIOLockedValueBox<[String]>([])
        let logger = logger(into: lines)
        logger.warning("title \u{202E}4pm.exe", metadata: [
            "nested": .dictionary(["etag": "\u{1B}[31m"]),
            "described": .stringConvertible(Int64(7)),
        ])
        #expect(lines.withLockedValue { $0 } == ["title ?4pm.exe described=7 nested=[\"etag\": \"?[31m\"]"])
    }

    /// Far past any line vodapp writes, a server's text is cut.
    @Test func aLongLineIsCutAt4096Characters() {
        let lines = NIOLockedValueBox<[String]>([])
        let logger = logger(into: lines)
        logger.error("\(String(repeating: "é", count: 10_000))")
        #expect(lines.withLockedValue { $0.first?.unicodeScalars.count } == 4096)
    }

    /// The level is the wrapped handler's: what is below it is not written at all.
    @Test func theLevelIsKept() {
        let lines = NIOLockedValueBox<[String]>([])
        let logger = logger(into: lines, level: .warning)
        logger.info("quiet")
        logger.warning("loud")
        #expect(lines.withLockedValue { $0 } == ["loud"])
        #expect(logger.logLevel == .warning)
    }
}
