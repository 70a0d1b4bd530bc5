import Testing

/// Keeps the suite's CPU-heavy set-ups (starting python-dbusmock, encoding with ffmpeg) and its
/// timing-sensitive suites (budgets of 1.5–2 s, a measured rate) from running at the same time.
///
/// The tests run in parallel on a machine of two cores. A python start-up or an ffmpeg encode
/// beside a delivery with a 1.5 s budget left it no time to read its payload, let alone a byte:
/// what those suites measure is vodapp's, and the load of the suite's own fixtures must not
/// decide it. Holders take turns; a holder's own tasks (a timing-sensitive suite starting a
/// helper server) do not wait for themselves.
public actor HeavyWork {
    public static let shared = HeavyWork()

    @TaskLocal static var held = false
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` while no other holder runs.
    public static func exclusively<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if held { return try await body() }
        await shared.acquire()
        do {
            let result = try await $held.withValue(true) { try await body() }
            await shared.release()
            return result
        } catch {
            await shared.release()
            throw error
        }
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            // The turn passes straight to the next holder: `busy` stays true.
            waiting.removeFirst().resume()
        }
    }
}

/// A suite whose tests measure time (a budget, a rate): it runs while no CPU-heavy set-up does
/// (`HeavyWork`), its own tests still in parallel with each other.
public struct TimingSensitive: SuiteTrait, TestScoping {
    public var isRecursive: Bool { false }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await HeavyWork.exclusively { try await function() }
    }
}

extension Trait where Self == TimingSensitive {
    /// See `TimingSensitive`.
    public static var timingSensitive: TimingSensitive { TimingSensitive() }
}
