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

/// A loopback port that nothing listens on: bound, then released.
public func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length)
            return getsockname(fd, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
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
