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
