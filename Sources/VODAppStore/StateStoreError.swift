import Foundation
import GRDB
import VODAppBase

/// Why the state store was not opened, beyond SQLite's own errors.
public enum StateStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The work area or a database file is not what vodapp made: opening it could write outside
    /// DIR or block.
    case unsafe(String)
    /// The database at `path` holds objects (`view 'item'`) that vodapp did not make: SQLite
    /// would run them on vodapp's queries.
    case foreign(path: String, objects: [String])

    public var description: String {
        switch self {
        case .unsafe(let reason):
            return reason
        case .foreign(let path, let objects):
            let named = objects.prefix(3).joined(separator: ", ") + (objects.count > 3 ? " and \(objects.count - 3) more" : "")
            return "\(path) holds what vodapp did not make (\(named)); move .vodapp/state.sqlite aside to start afresh"
        }
    }
}

extension StateStoreError {
    /// Any error of the store's in one line a person can read: SQLite's own message, never the
    /// SQL, the arguments or a whole record that GRDB's descriptions carry.
    /// Names in SQLite's messages come from the store, which anyone who can write DIR can make:
    /// the line is made safe for a terminal.
    public static func oneLine(_ error: any Error) -> String {
        UntrustedText.sanitized(unsanitizedLine(error), limit: 1_000, replacingControlsWith: "?")
    }

    private static func unsanitizedLine(_ error: any Error) -> String {
        switch error {
        case let error as DatabaseError:
            // GRDB's message may go on with the statement it ran ("… - while executing `PRAGMA …`").
            let message = (error.message ?? "\(error.resultCode)").components(separatedBy: " - while executing").first ?? ""
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return "it is not a store vodapp can read (\(message)); move .vodapp/state.sqlite aside to start afresh"
            case .SQLITE_INTERRUPT:
                return "a query of its store ran past \(QueryTimeLimit.limit.components.seconds) s and was stopped: "
                    + "was it made to be slow? move .vodapp/state.sqlite aside to start afresh"
            case .SQLITE_ERROR where message.hasPrefix("no such table"):
                return "it is not a store vodapp made (\(message)); move .vodapp/state.sqlite aside to start afresh"
            default:
                return "SQLite error \(error.resultCode.rawValue): \(message)"
            }
        case let error as StateStoreError:
            return error.description
        // A column of a type it should not have is GRDB's; a value no case of ours has (a state
        // of "bogus") is Swift's decoding error.
        case is RowDecodingError, is DecodingError:
            return "it holds a record vodapp cannot read (was it edited by hand?); move .vodapp/state.sqlite aside to start afresh"
        default:
            let line = "\(error)".split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return line.count > 200 ? String(line.prefix(200)) + "…" : line
        }
    }
}
