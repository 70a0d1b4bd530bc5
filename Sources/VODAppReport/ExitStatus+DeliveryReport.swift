import VODAppBase

/// A delivery's exit status: 0 when every valid item is in DIR or was dropped as too large; 75
/// (EX_TEMPFAIL) when one failed or timed out in a way that delivering again later may fix,
/// which scripts should do; otherwise 65 (EX_DATAERR) when an item is invalid, a bug of the
/// payload's author that a successful run would hide; otherwise 69 (EX_UNAVAILABLE) when an
/// item failed for good (a 404, a certificate that does not verify), which only a change of
/// payload or server fixes.
///
/// 75 comes first: a script that delivers again on it gets 65 once what may pass has.
extension ExitStatus {
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
}
