import Foundation

/// Sends one UDP datagram from a plain socket: exactly what `nc -4u -w1 localhost PORT` sends.
public func sendDatagram(_ bytes: Data, toPort port: Int) throws {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    defer { close(fd) }
    var size = Int32(bytes.count + 4096)
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    var address = loopback(port: port)
    let sent = bytes.withUnsafeBytes { buffer in
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
    guard sent == bytes.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

/// Writes `bytes` to a TCP port and reads whatever comes back until the peer closes or `timeout`
/// seconds pass with nothing: for sending garbage where an HTTP request belongs.
public func exchangeRaw(_ bytes: Data, withPort port: Int, timeout seconds: Int = 1) throws -> Data {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    defer { close(fd) }
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED) }
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var answer = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count <= 0 { break }
        answer.append(contentsOf: buffer[0..<count])
    }
    return answer
}

/// GETs a URL on loopback with a minimal HTTP/1.1 request; returns the status code and body.
public func httpGet(port: Int, path: String, timeout: Int = 1) throws -> (status: Int, body: String) {
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
    let answer = String(decoding: try exchangeRaw(Data(request.utf8), withPort: port, timeout: timeout), as: UTF8.self)
    let statusLine = answer.split(separator: "\r\n", maxSplits: 1).first ?? ""
    let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    let body = answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    return (status, body)
}

package func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}

/// The local ports on which a socket of this process is bound and waiting: TCP sockets listening,
/// and UDP sockets bound. Read from /proc, so that "nothing is left listening" is asserted about
/// this process's own sockets; connecting to the port instead would meet whichever process, or
/// test, the system gave the freed port to next.
public func portsThisProcessListensOn() -> Set<Int> {
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    let inodes = Set(descriptors.compactMap { name -> Substring? in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
              target.hasPrefix("socket:[") else { return nil }
        return Substring(target.dropFirst("socket:[".count).dropLast())
    })
    var ports = Set<Int>()
    // Each table's lines: sl local_address rem_address st … inode; TCP's LISTEN is 0A, and a
    // bound UDP socket with no peer is 07.
    for (table, waiting) in [("tcp", "0A"), ("tcp6", "0A"), ("udp", "07"), ("udp6", "07")] {
        guard let text = procText("/proc/self/net/\(table)") else { continue }
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[3] == waiting, inodes.contains(fields[9]),
                  let port = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }) else { continue }
            ports.insert(port)
        }
    }
    return ports
}

/// A /proc file's text, read to its end: it reports a size of 0, and Foundation's readers stop
/// after the first page of a table that is longer.
private func procText(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var text = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return count == 0 ? String(decoding: text, as: UTF8.self) : nil }
        text.append(contentsOf: buffer[0..<count])
    }
}

/// Whether something accepts TCP connections on the loopback port.
public func acceptsConnections(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// A TCP socket listening on 127.0.0.1 at a port the kernel chose, with `backlog`.
/// - Returns: the descriptor and the port.
public func listenOnLoopback(backlog: Int32) throws -> (descriptor: Int32, port: Int) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EIO) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(listener, pointer, length) == 0 && listen(listener, backlog) == 0 && getsockname(listener, pointer, &length) == 0
        }
    }
    guard bound else {
        let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        close(listener)
        throw failure
    }
    return (listener, Int(UInt16(bigEndian: address.sin_port)))
}
