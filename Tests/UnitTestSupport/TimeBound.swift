import Foundation

/// A time limit a test asserts, as the contract states it (the budget + 0.5 s, a signal's 1 s).
///
/// Under a sanitizer (`scripts/test-sanitized` sets `VODAPP_TEST_SANITIZER`) every process runs
/// several times slower, so the limits stretch by `slowdown`: a sanitizer run is there to find
/// memory and thread errors; the normal run holds vodapp to its times.
public enum TimeBound {
    /// The sanitizer this run is built with, if any.
    public static let sanitizer: String? = ProcessInfo.processInfo.environment["VODAPP_TEST_SANITIZER"]

    static let slowdown: Double = sanitizer == nil ? 1 : 5

    public static func seconds(_ limit: Double) -> Double {
        limit * slowdown
    }

    public static func duration(_ limit: Duration) -> Duration {
        limit * slowdown
    }
}
