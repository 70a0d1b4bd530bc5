import NIOConcurrencyHelpers

/// Resumes a continuation with whichever answer comes first, and ignores the rest: a slow party
/// (a notification server, a thread) and a timer race to give it.
public final class FirstAnswer<Value: Sendable>: Sendable {
    private let continuation: NIOLockedValueBox<CheckedContinuation<Value, Never>?>

    public init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = NIOLockedValueBox(continuation)
    }

    /// Returns whether this was the first answer, the one taken.
    @discardableResult
    public func give(_ value: Value) -> Bool {
        let waiting = continuation.withLockedValue { value -> CheckedContinuation<Value, Never>? in
            defer { value = nil }
            return value
        }
        waiting?.resume(returning: value)
        return waiting != nil
    }
}
