import Foundation

/// Lines for a person on stderr that are not log lines: errors that end a command, and warnings
/// about what a person asked for directly. Each is named for the tool, as Unix tools do. A
/// stderr that cannot be written loses the line, never the process (see `StandardOutput`).
public enum StandardError {
    /// `vodapp: message`.
    public static func write(_ message: String) {
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
