import Logging
import VODAppBase

extension Attention {
    /// How the executables show what the libraries tell the person running them: each line
    /// through the process's logger, warnings as warnings and notices as notices, so that `-q`
    /// and `--log-level` decide.
    public static func logged(to logger: Logger) -> Attention {
        Attention { weight, message, metadata in
            let metadata = metadata.isEmpty ? nil : metadata
            switch weight {
            case .warning: logger.warning("\(message)", metadata: metadata)
            case .notice: logger.notice("\(message)", metadata: metadata)
            }
        }
    }
}
