import Foundation
import GRDB

/// Why the state store was not opened, beyond SQLite's own errors.
public enum StateStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The work area or a database file is not what vodapp made: opening it could write outside
    /// DIR or block.
    case unsafe(String)

    public var description: String {
        switch self {
        case .unsafe(let reason): reason
        }
    }
}

extension StateStoreError {
    /// Any error of the store's in one line a person can read: SQLite's own message, never the
    /// SQL, the arguments or a whole record that GRDB's descriptions carry.
    public static func oneLine(_ error: any Error) -> String {
        switch error {
        case let error as DatabaseError:
            return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "\(error.resultCode)")"
        case let error as StateStoreError:
            return error.description
        case is RowDecodingError:
            return "it holds a record vodapp cannot read (was it edited by hand?); move .vodapp/state.sqlite aside to start afresh"
        default:
            let line = "\(error)".split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return line.count > 200 ? String(line.prefix(200)) + "…" : line
        }
    }

    /// Whether `directory` has a store: false only when there is none; a store that cannot be
    /// looked at (a work area or DIR the user may not read) is an error, not an empty history.
    public static func storeExists(in directory: String) throws -> Bool {
        var info = stat()
        if lstat(directory + "/.vodapp/state.sqlite", &info) == 0 { return true }
        let failure = errno
        guard failure == ENOENT else { throw StoreAccessError(path: directory + "/.vodapp/state.sqlite", errno: failure) }
        // ENOENT: none, unless DIR itself cannot be listed (then its .vodapp is unknown).
        guard access(directory, R_OK | X_OK) == 0 else { throw StoreAccessError(path: directory, errno: errno) }
        return false
    }
}

/// A store, or DIR, this process may not look into.
public struct StoreAccessError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let errno: Int32

    public var description: String {
        "\(path): \(String(cString: strerror(errno)))"
    }
}
