import VODAppBase

/// Why a delivery could not run at all: its media directory cannot be used, or no descriptor is
/// left to use it with.
public enum MediaDirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
    case directoryUnusable(path: String, reason: String)
    /// The process has as many files open as its limit allows (`ulimit -n`): not DIR's fault,
    /// and another try with a higher limit, or fewer deliveries at once, may pass.
    case tooManyOpenFiles(String)

    public var description: String {
        switch self {
        case .directoryUnusable(let path, let reason): "cannot use \(path) for media: \(reason)"
        case .tooManyOpenFiles(let what):
            "too many open files: cannot open \(what) (the limit is \(OpenFileLimit.current); raise it with ulimit -n)"
        }
    }
}

extension MediaDirectoryError: ExitStatusProviding {
    /// 73 for a DIR that cannot be used; 75 for a limit of open files that may be raised (or
    /// be less busy) next time.
    public var exitStatus: ExitStatus {
        switch self {
        case .directoryUnusable: .directoryUnusable
        case .tooManyOpenFiles: .temporaryFailure
        }
    }
}
