/// What a run fetches next once one of its requests has ended.
public protocol TransferFollowUp: Sendable {
    /// Called on the transfer thread with each outcome that is final for its request (a request
    /// about to be retried is not final yet).
    /// - Returns: requests to add to the run, and the ids of queued requests no longer wanted.
    func next(after outcome: TransferOutcome) -> (add: [TransferRequest], cancel: Set<String>)

    /// Whether the request `id` of the caller's has ended but its follow-up requests have not: an
    /// HLS item whose playlist arrived and whose segments are still coming is not done.
    func isUnderway(_ id: String) -> Bool

    /// Called on the transfer thread as the run is cut (its deadline, a signal), with the outcome
    /// of each request the follow-up added that was still running or waiting: what it kept
    /// (`partial`) the next run may resume.
    func cut(_ outcome: TransferOutcome)

    /// Asked at every turn of the run: the ids of requests it added that it no longer wants,
    /// queued or running, given up between outcomes (a timer's). They end without an outcome.
    func withdrawn() -> Set<String>

    /// Called as the run starts with what wakes it (to ask `withdrawn` at once), and with nil as
    /// it ends: not to be called after that.
    func attach(wake: (@Sendable () -> Void)?)
}

extension TransferFollowUp {
    public func cut(_ outcome: TransferOutcome) {}
    public func withdrawn() -> Set<String> { [] }
    public func attach(wake: (@Sendable () -> Void)?) {}
}
