import ArgumentParser
import Foundation

/// How every command ends in error: one line on stderr, named for the tool, then the exit code.
public enum Failure {
    public static func report(_ message: String, status: ExitStatus) -> ExitCode {
        let tool = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "vodapp"
        FileHandle.standardError.write(Data("\(tool): \(message)\n".utf8))
        return ExitCode(status.rawValue)
    }

    /// A warning that is not a log line: for things a person asked about directly.
    public static func warn(_ message: String) {
        let tool = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "vodapp"
        FileHandle.standardError.write(Data("\(tool): warning: \(message)\n".utf8))
    }
}
