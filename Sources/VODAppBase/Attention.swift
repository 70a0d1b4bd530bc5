import Logging

/// What a library has to tell the person running vodapp, as opposed to its diagnostics.
///
/// The libraries log as libraries (swift-log's guidance): at info and below, with the data in
/// metadata, for whoever turns `-v` on. A few things the person must hear of by default: a store
/// that cannot be used, a notification that could not be shown, a refused push, a delivery that
/// began late. Those go here, and the executable decides how they are shown (`vodapp` writes them
/// to stderr through its own logger, as warnings and notices, so `-q` and `--log-level` apply).
public struct Attention: Sendable {
    /// How much a line matters; the executable maps it to a log level.
    public enum Weight: Sendable {
        /// Something went wrong that does not stop the run.
        case warning
        /// Worth knowing in normal operation (a delivery's end, a late start).
        case notice
    }

    private let sink: @Sendable (Weight, String, Logger.Metadata) -> Void

    public init(_ sink: @escaping @Sendable (Weight, String, Logger.Metadata) -> Void) {
        self.sink = sink
    }

    /// Nobody to tell: for tests and embedders that read the results instead.
    public static let unheard = Attention { _, _, _ in }

    /// The same, with `metadata` on every line (which delivery a line is about, say).
    public func adding(_ metadata: Logger.Metadata) -> Attention {
        Attention { [sink] weight, message, own in sink(weight, message, metadata.merging(own) { $1 }) }
    }

    public func warn(_ message: String, metadata: Logger.Metadata = [:]) {
        sink(.warning, message, metadata)
    }

    public func note(_ message: String, metadata: Logger.Metadata = [:]) {
        sink(.notice, message, metadata)
    }
}
