import Foundation

/// The MQTT broker of `vodapp-push demo --via mqtt`: Debian's mosquitto, started on a free
/// loopback port for the demo and stopped after it. Without a configuration file, mosquitto 2
/// listens on that port of loopback only and lets anonymous clients in: a broker for this
/// machine alone, as the demo needs, and nothing else.
struct DemoBroker: Sendable {
    /// Where Debian installs it, then the PATH.
    static let executables = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"]

    let port: Int
    private let process: Process

    enum Failure: Error, CustomStringConvertible {
        case notInstalled
        case didNotStart(String)

        var description: String {
            switch self {
            case .notInstalled: "--via mqtt needs the mosquitto broker: install it (sudo apt install mosquitto), or use --via udp or http"
            case .didNotStart(let reason): "mosquitto did not start: \(reason)"
            }
        }
    }

    /// Starts mosquitto and waits (at most 5 s) until it takes connections.
    static func start() async throws(Failure) -> DemoBroker {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = executables + path.split(separator: ":").map { "\($0)/mosquitto" }
        guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw .notInstalled
        }
        var lastFailure = "no attempt"
        // A free port is free when asked, not necessarily when mosquitto binds: a few tries.
        for _ in 0..<3 {
            guard let port = freePort() else { throw .didNotStart("no free loopback port") }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["-p", String(port)]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                throw .didNotStart("\(error)")
            }
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline, process.isRunning {
                if accepts(port: port) { return DemoBroker(port: port, process: process) }
                try? await Task.sleep(for: .milliseconds(20))
            }
            lastFailure = process.isRunning ? "port \(port) still closed after 5 s" : "it exited with status \(process.terminationStatus)"
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        throw .didNotStart(lastFailure)
    }

    /// Ends the broker and waits for it. SIGKILL, not SIGTERM: the demo's broker keeps nothing,
    /// and a child started from a process that ignores SIGTERM (a signal trap) ignores it too.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func freePort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }
}
