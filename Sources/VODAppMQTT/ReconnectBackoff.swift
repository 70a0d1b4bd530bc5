import VODAppBase

/// How long a subscription waits before it connects again: exponential, capped, and jittered.
///
/// A fleet of devices that lost its broker at the same moment must not come back in lockstep, or
/// the broker's restart is met by every device at once, again and again. Each wait is drawn
/// at random from the upper half of the exponential step ("equal jitter"), so waits spread out
/// while still growing: 1 s, 2 s, 4 s … up to `maximum`, each somewhere in [step/2, step].
public struct ReconnectBackoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration

    public static let standard = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(60))

    public init(initial: Duration, maximum: Duration) {
        self.initial = max(initial, .milliseconds(10))
        self.maximum = max(maximum, self.initial)
    }

    /// The step before jitter for the `attempt`th reconnection in a row (0 for the first).
    public func step(after attempt: Int) -> Duration {
        var step = initial
        for _ in 0..<min(max(attempt, 0), 62) {
            step *= 2
            if step >= maximum { return maximum }
        }
        return min(step, maximum)
    }

    /// The wait before the `attempt`th reconnection in a row, jittered with `generator`.
    public func delay(after attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let step = step(after: attempt)
        let half = step / 2
        let milliseconds = half.milliseconds
        guard milliseconds > 0 else { return step }
        return half + .milliseconds(Int64.random(in: 0...milliseconds, using: &generator))
    }

    public func delay(after attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(after: attempt, using: &generator)
    }
}
