import Logging
import VODAppBase

/// A log handler that passes each line to another with every control character in its message
/// and metadata replaced: log lines carry what servers and payloads sent (an ETag, a reason, a
/// URL), and an escape sequence in one must not retitle or clear the user's terminal.
struct SanitizingLogHandler: LogHandler {
    var wrapped: any LogHandler

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(Self.clean(event.message.description))"
        event.metadata = event.metadata?.mapValues(Self.clean)
        wrapped.log(event: event)
    }

    /// Long enough for any line vodapp writes; a server's text beyond it is cut.
    private static let limit = 4096

    private static func clean(_ text: String) -> String {
        UntrustedText.sanitized(text, limit: limit, replacingControlsWith: "?")
    }

    private static func clean(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(clean(text))
        case .stringConvertible(let value): .string(clean(value.description))
        case .array(let values): .array(values.map(clean))
        case .dictionary(let values): .dictionary(values.mapValues(clean))
        @unknown default: .string(clean("\(value)"))
        }
    }
}
