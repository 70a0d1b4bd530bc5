/// The process exit codes of the contract, from sysexits(3) where one fits. In Base, so that
/// each library's errors say how a command ends with them (`ExitStatusProviding`) and the
/// executables need no feature target to map them.
public enum ExitStatus: Int32, Sendable {
    /// Every valid item is in DIR or was dropped as too large.
    case success = 0
    /// EX_USAGE: bad command line.
    case usage = 64
    /// EX_DATAERR: the payload is invalid as a whole, or some of its items are (the valid ones
    /// were still fetched).
    case invalidPayload = 65
    /// EX_NOINPUT: the payload file is missing or unreadable.
    case payloadUnreadable = 66
    /// EX_UNAVAILABLE: an item failed for good and none failed in a way that may pass later (a
    /// 404, a certificate that does not verify); a receiver could not start (its address is in
    /// use, say); or a push could not be sent or was refused.
    case unavailable = 69
    /// EX_CANTCREAT: DIR cannot be created or written.
    case directoryUnusable = 73
    /// EX_TEMPFAIL: an item failed or timed out; delivering again later may succeed.
    case temporaryFailure = 75
    /// EX_NOPERM: a poll endpoint rejected the credentials (401 or 403), or a broker did.
    case credentialsRejected = 77
}

/// An error a command ends with: one line for a person, and the exit status for a script.
/// Each library's errors adopt it where they are declared, so that one failure ends every
/// command the same way and `CommandFailure` maps any of them without knowing their types.
public protocol ExitStatusProviding: Error, CustomStringConvertible {
    /// The status the process exits with.
    var exitStatus: ExitStatus { get }
    /// The line on stderr, after the tool's name: `description` unless the error needs context.
    var commandMessage: String { get }
}

extension ExitStatusProviding {
    public var commandMessage: String { description }
}
