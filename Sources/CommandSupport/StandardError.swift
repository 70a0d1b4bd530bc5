import Foundation

/// Lines for a person on stderr that are not log lines: errors that end a command, and warnings
/// about what a person asked for directly. Each is named for the tool, as Unix tools do.
public enum StandardError {
    /// `vodapp: message`.
    public static func write(_ message: String) {
        // Nowhere to say so when stderr cannot be written: `write(_:)` would trap on the error.
        try? FileHandle.standardError.write(contentsOf: Data("\(tool): \(message)\n".utf8))
    }

    /// `vodapp: warning: message`.
    public static func warn(_ message: String) {
        write("warning: \(message)")
    }

    private static var tool: String {
        CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "vodapp"
    }
}
