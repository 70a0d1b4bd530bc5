import ArgumentParser
import Foundation
import VODAppCore

/// How every vodapp command ends in error: one line on stderr, then the exit code.
enum Failure {
    static func report(_ message: String, status: ExitStatus) -> ExitCode {
        FileHandle.standardError.write(Data("vodapp: \(message)\n".utf8))
        return ExitCode(status.rawValue)
    }
}
