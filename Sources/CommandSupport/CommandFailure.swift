import Foundation
import VODAppBase

/// How a command ends in error: one line on stderr, named for the tool, then the exit status.
///
/// This is the one mapping from what the libraries throw to what a person and a script see:
/// commands throw the libraries' errors as they come (adding, at most, what the line is about),
/// each error says its line and status (`ExitStatusProviding`), and `CommandLineTool` ends the
/// process with it.
public struct CommandFailure: Error, Sendable {
    public let message: String
    public let status: ExitStatus

    public init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    /// `error` as its command ends with it, the line prefixed with what it is about
    /// (`udp://127.0.0.1:9930: nothing is listening there`); nil for an error that is not a
    /// library's (ArgumentParser's own, which `CommandLineTool` reports).
    public init?(_ error: any Error, about subject: String? = nil) {
        guard let (message, status) = Self.mapped(error) else { return nil }
        self.init(subject.map { "\($0): \(message)" } ?? message, status: status)
    }

    private static func mapped(_ error: any Error) -> (String, ExitStatus)? {
        switch error {
        case let failure as CommandFailure: (failure.message, failure.status)
        case let error as any ExitStatusProviding: (error.commandMessage, error.exitStatus)
        default: nil
        }
    }

    /// Writes the line and ends the process with the status.
    public func exit() -> Never {
        StandardError.write(message)
        Foundation.exit(status.rawValue)
    }
}
