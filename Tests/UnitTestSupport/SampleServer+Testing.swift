import Foundation
import VODAppSamples

/// Runs `body` with a fresh sample server, shut down afterwards whatever happens.
public func withSampleServer<T>(rate: Int? = nil, linkRate: Int? = nil, _ body: (SampleServer) async throws -> T) async throws -> T {
    let server = try await SampleServer.start(rate: rate, linkRate: linkRate)
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// A loopback port for a server that starts later, or stops and starts again on it (a broker
/// brought down and back): below the kernel's ephemeral range, which `closedPort()` picks from and
/// which every outgoing connection of the tests running beside takes its local port from. One of
/// them took a broker's port while it was down (EADDRINUSE when it came back).
public func portOutsideTheEphemeralRange() throws -> Int {
    let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
        .split(whereSeparator: \.isWhitespace).compactMap { Int($0) } ?? []
    let ephemeralStart = range.first ?? 32768
    for _ in 0..<100 {
        let port = Int.random(in: 10_000..<max(10_001, ephemeralStart))
        if canBind(port) { return port }
    }
    return try closedPort()
}

/// Whether `port` on loopback can be bound now.
private func canBind(_ port: Int) -> Bool {
    withLoopbackSocket(boundTo: port) { _, bound in bound }
}

/// A loopback port that nothing listens on: bound, then released.
public func closedPort() throws -> Int {
    withLoopbackSocket(boundTo: 0) { fd, _ in
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// `body` given a TCP socket and whether it could be bound to `port` on loopback (0: one the
/// kernel picks); the socket is closed after.
private func withLoopbackSocket<T>(boundTo port: Int, _ body: (Int32, Bool) -> T) -> T {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    return body(fd, bound)
}

/// The most requests the server was answering at the same moment.
public func maximumConcurrency(_ records: [SampleRequestRecord]) -> Int {
    var events: [(ContinuousClock.Instant, Int)] = []
    for record in records {
        events.append((record.started, 1))
        events.append((record.ended ?? .now, -1))
    }
    // Ends sort before starts at the same instant: back-to-back is not overlapping.
    events.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
    var current = 0
    var peak = 0
    for (_, change) in events {
        current += change
        peak = max(peak, current)
    }
    return peak
}
