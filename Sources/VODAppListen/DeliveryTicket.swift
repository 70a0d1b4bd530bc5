import NIOConcurrencyHelpers
import VODAppDelivery
import VODAppMediaDirectory
import VODAppPayload
import VODAppReport

/// A delivery accepted into the queue: its id, and its report once it has run.
public final class DeliveryTicket: Sendable {
    public typealias Outcome = Result<DeliveryReport, MediaDirectoryError>

    /// Short, random, and in every log line about the delivery, so a 202's id can be found there.
    public let id: String
    public let origin: DeliverySource
    /// Who vouches for the push: whether the person's credentials go with its requests.
    public let authentication: PushAuthentication
    /// When the push arrived, which is when its budget starts: like a phone's background
    /// wake-up, a push waiting in the queue is already spending its 30 seconds.
    public let arrived: ContinuousClock.Instant

    private enum State {
        case pending([CheckedContinuation<Outcome, Never>])
        case done(Outcome)
    }

    private let state = NIOLockedValueBox(State.pending([]))

    init(origin: DeliverySource, authentication: PushAuthentication, arrived: ContinuousClock.Instant = .now) {
        self.id = String(UInt64.random(in: 0...UInt64.max), radix: 16).leftPadded(to: 16)
        self.origin = origin
        self.authentication = authentication
        self.arrived = arrived
    }

    /// Waits for the delivery to end.
    public func outcome() async -> Outcome {
        await withCheckedContinuation { continuation in
            let done = state.withLockedValue { state -> Outcome? in
                switch state {
                case .done(let outcome):
                    return outcome
                case .pending(var waiting):
                    waiting.append(continuation)
                    state = .pending(waiting)
                    return nil
                }
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    func finish(_ outcome: Outcome) {
        let waiting = state.withLockedValue { state -> [CheckedContinuation<Outcome, Never>] in
            guard case .pending(let waiting) = state else { return [] }
            state = .done(outcome)
            return waiting
        }
        for continuation in waiting {
            continuation.resume(returning: outcome)
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
