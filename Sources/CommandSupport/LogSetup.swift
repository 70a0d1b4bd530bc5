import Logging

/// Sets swift-log up once for the process: everything to stderr, stdout stays for the report.
public enum LogSetup {
    /// - Parameters:
    ///   - level: `--log-level`, which wins over `-q` and `-v`.
    ///   - normal: the level without any of them: warnings for a one-shot run, notices (one line
    ///     per delivery) for the listener.
    public static func bootstrap(quiet: Bool, verbose: Bool, level chosen: Logger.Level? = nil,
                                 normal: Logger.Level = .warning) -> Logger {
        let level: Logger.Level = chosen ?? (quiet ? .error : verbose ? .debug : normal)
        LoggingSystem.bootstrap { label in
            var handler = SanitizingLogHandler(wrapped: StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
        GLibLog.route()
        return Logger(label: "vodapp")
    }
}
