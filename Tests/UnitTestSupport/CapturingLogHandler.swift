import Logging
import NIOConcurrencyHelpers

/// A swift-log handler that keeps each line it is given (the message, then `key=value` for the
/// metadata, sorted), for tests to read back.
public struct CapturingLogHandler: LogHandler {
    public let lines: NIOLockedValueBox<[String]>
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .trace

    public init(into lines: NIOLockedValueBox<[String]>) {
        self.lines = lines
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        lines.withLockedValue { $0.append(([event.message.description] + fields).joined(separator: " ")) }
    }
}
