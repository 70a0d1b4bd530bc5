import Foundation
import VODAppPayload
import VODAppPush
import VODAppTransfer

/// `vodapp listen` started as a user would, on free loopback ports, with `--json` output.
public final class ListenerUnderTest: Sendable {
    public let process: RunningProcess
    public let udpPort: Int
    public let httpPort: Int

    /// Starts the listener with media in `dir` and waits until both receivers are up.
    /// - Parameters:
    ///   - notify: raise notifications (on the bus `environment` names); off by default.
    ///   - ready: wait until every receiver is up (a broker subscription too); false returns once
    ///     the process started (a broker that is down at the start).
    ///   - descriptorLimit: the soft and hard RLIMIT_NOFILE it starts with (through prlimit(1),
    ///     which execs it: the process is the listener's), as a shell's `ulimit -n` would set them.
    ///   - udp: give `--udp` (a free port); false leaves UDP to the listener's default, which a
    ///     secret turns off (without one it is port 9930, which a test should not take).
    public init(dir: String, arguments: [String] = [], notify: Bool = false, ready: Bool = true, udp: Bool = true,
                descriptorLimit: (soft: Int, hard: Int)? = nil,
                environment: [String: String] = VODAppRunner.environment()) async throws {
        let command = [
            "listen", "--http", "127.0.0.1:0", "--dir", dir, "--json",
        ] + (udp ? ["--udp", "127.0.0.1:0"] : []) + (notify ? [] : ["--no-notify"]) + arguments
        let process = if let descriptorLimit {
            try await RunningProcess("/usr/bin/prlimit", ["--nofile=\(descriptorLimit.soft):\(descriptorLimit.hard)", "--", VODAppRunner.executable] + command,
                                     environment: environment)
        } else {
            try await RunningProcess(VODAppRunner.executable, command, environment: environment)
        }
        if ready {
            try await process.wait(for: "the listener to be ready") {
                process.jsonLines.contains { $0["listening"] != nil } || !process.isRunning
            }
        }
        let endpoints = process.jsonLines.compactMap { $0["listening"] as? [String] }.first ?? []
        func port(_ scheme: String) -> Int {
            endpoints.first { $0.hasPrefix(scheme) }.flatMap { URLComponents(string: $0)?.port } ?? 0
        }
        self.process = process
        udpPort = port("udp://")
        httpPort = port("http://")
    }

    public var pushURL: URL { URL(string: "http://127.0.0.1:\(httpPort)/push")! }

    /// The delivery lines printed so far, in order.
    public var deliveries: [[String: Any]] {
        process.jsonLines.filter { $0["delivery"] != nil }
    }

    /// Waits until `count` deliveries have been printed and returns them.
    @discardableResult
    public func waitForDeliveries(_ count: Int, timeout: Duration = .seconds(30)) async throws -> [[String: Any]] {
        try await process.wait(for: "\(count) deliveries", timeout: timeout) { deliveries.count >= count }
        return deliveries
    }

    /// POSTs `body` as it is (no checks), signed when `secret` is given (now, or at `signedAt`,
    /// which sends the very same request again for the same time).
    public func post(_ body: Data, wait: Bool = false, secret: String? = nil,
                     signedAt: Int64 = PushSignature.now()) async -> Result<PushSender.Receipt, PushError> {
        let url = wait ? URL(string: pushURL.absoluteString + "?wait=1")! : pushURL
        do {
            return .success(try await PushSender().send(body, to: .http(url), secret: secret, signedAt: signedAt))
        } catch {
            return .failure(error)
        }
    }

    /// Stops the listener as a service manager would (SIGTERM), and returns its exit status:
    /// 143 when it stopped as it should.
    public func stop(timeout: Duration = .seconds(40)) async throws -> Int32 {
        process.signal(SIGTERM)
        return try await process.exitStatus(timeout: timeout)
    }
}

extension Result where Success == PushSender.Receipt, Failure == PushError {
    /// The HTTP status: the answer's on success, the refusal's otherwise (0 when none came).
    public var status: Int {
        switch self {
        case .success(.accepted(let status, _)): status
        case .success(.datagram), .success(.published): 0
        case .failure(.refused(let status, _)): status
        case .failure: 0
        }
    }

    /// The answer's body parsed as a JSON object.
    public var json: [String: Any]? {
        guard case .success(.accepted(_, let body)) = self else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }
}
