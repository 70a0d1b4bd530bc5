import Logging

/// Sets swift-log up once for the process: everything to stderr, stdout stays for the report.
enum LogSetup {
    static func bootstrap(quiet: Bool, verbose: Bool) -> Logger {
        let level: Logger.Level = quiet ? .error : verbose ? .debug : .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "vodapp")
    }
}
