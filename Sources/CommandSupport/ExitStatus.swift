import VODAppDelivery
import VODAppMediaDirectory
import VODAppMQTT
import VODAppPush

/// The process exit codes of the contract, from sysexits(3) where one fits.
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

/// How each result of the libraries becomes an exit status: one place, so that the same failure
/// ends every command the same way.
extension ExitStatus {
    /// 0 when every valid item is in DIR or was dropped as too large; 75 (EX_TEMPFAIL) when one
    /// failed or timed out in a way that delivering again later may fix, which scripts should
    /// do; otherwise 65 (EX_DATAERR) when an item is invalid, a bug of the payload's author that
    /// a successful run would hide; otherwise 69 (EX_UNAVAILABLE) when an item failed for good
    /// (a 404, a certificate that does not verify), which only a change of payload or server fixes.
    ///
    /// 75 comes first: a script that delivers again on it gets 65 once what may pass has.
    public init(_ report: DeliveryReport) {
        let failures = report.items.filter { $0.status == .failed || $0.status == .timedOut }
        // A deferred item is fetched by a later delivery on a better connection: the same as a
        // failure that may pass, for a script or a timer.
        if failures.contains(where: { $0.final != true }) || report.items.contains(where: { $0.status == .deferred }) {
            self = .temporaryFailure
        } else if report.items.contains(where: { $0.status == .invalid }) {
            self = .invalidPayload
        } else {
            self = failures.isEmpty ? .success : .unavailable
        }
    }

    public init(_ error: MediaDirectoryError) {
        switch error {
        case .directoryUnusable: self = .directoryUnusable
        case .tooManyOpenFiles: self = .temporaryFailure
        }
    }

    public init(_ failure: PayloadPoll.Failure) {
        switch failure {
        case .tokenRejected: self = .credentialsRejected
        case .unavailable: self = .temporaryFailure
        case .invalid: self = .invalidPayload
        }
    }

    /// A broker that refused the credentials is 77, as a poll endpoint that refused its token;
    /// anything else that kept a broker from taking a push or a subscription is 69.
    public init(_ error: BrokerError) {
        switch error {
        case .credentialsRefused: self = .credentialsRejected
        default: self = .unavailable
        }
    }

    public init(_ error: DemoError) {
        switch error {
        case .deliveryFailed(let error): self.init(error)
        default: self = .unavailable
        }
    }
}
