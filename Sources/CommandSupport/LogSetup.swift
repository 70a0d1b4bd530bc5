import Logging

/// Sets swift-log up once for the process: everything to stderr, stdout stays for the report.
public enum LogSetup {
    /// - Parameter normal: the level without `-q` or `-v`: warnings for a one-shot run, notices
    ///   (one line per delivery) for the listener.
    public static func bootstrap(quiet: Bool, verbose: Bool, normal: Logger.Level = .warning) -> Logger {
        let level: Logger.Level = quiet ? .error : verbose ? .debug : normal
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "vodapp")
    }
}
