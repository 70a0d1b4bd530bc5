/// Why a test stopped waiting.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let description: String
}

/// Polls `condition` every 10 ms until it holds; throws once `timeout` passes, naming `what`
/// (and whatever `detail` adds at that moment). The timeout only keeps a broken test from hanging:
/// a machine loaded by the suite (two cores, a build beside it) starved a 10 s wait.
public func waitUntil(_ what: String, timeout: Duration = .seconds(60), detail: () -> String = { "" },
                      _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(description: "timed out waiting for \(what)\(detail())") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
