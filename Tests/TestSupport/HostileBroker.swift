import UnitTestSupport
import Foundation
import NIOConcurrencyHelpers

/// An MQTT "broker" on loopback that does what no real one does, to see what a subscriber holds
/// for it: it answers CONNECT and SUBSCRIBE as mosquitto would, then misbehaves (`Behaviour`).
/// mosquitto cannot be made to; a compromised or buggy broker can.
public final class HostileBroker: Sendable {
    public enum Behaviour: Sendable {
        /// QoS 2 PUBLISH packets of `messageBytes` each, as fast as the client reads, and never
        /// the PUBREL that would let it release them.
        case unreleasedQoS2Flood(messageBytes: Int)
        /// One QoS 1 PUBLISH of `bytes`, then silence: a message as large as MQTT allows, which
        /// the client reads whole before it can judge it.
        case oneLargeMessage(bytes: Int)
        /// One QoS 1 PUBLISH of `payload` on `topic`, whatever the client subscribed to, then
        /// silence.
        case oneMessage(topic: String, payload: [UInt8])
    }

    public let port: Int
    private let listener: Int32
    private let state = NIOLockedValueBox(State())

    private struct State {
        var connections = 0
        var stopped = false
    }

    /// How many clients connected so far.
    public var connections: Int { state.withLockedValue { $0.connections } }

    public init(_ behaviour: Behaviour = .unreleasedQoS2Flood(messageBytes: 1 << 20)) throws {
        let (listener, port) = try listenOnLoopback(backlog: 8)
        self.port = port
        self.listener = listener
        let state = state
        let thread = Thread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                state.withLockedValue { $0.connections += 1 }
                Thread { Self.serve(client, behaviour, state: state) }.start()
            }
        }
        thread.name = "hostile-broker"
        thread.start()
    }

    deinit {
        state.withLockedValue { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// One connection: CONNACK, SUBACK, then `behaviour` until the client goes away.
    private static func serve(_ fd: Int32, _ behaviour: Behaviour, state: NIOLockedValueBox<State>) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let connect = readPacket(fd), connect.type == 1 else { return }
        guard write(fd, [0x20, 0x02, 0x00, 0x00]) else { return }
        guard let subscribe = readPacket(fd), subscribe.type == 8, subscribe.body.count >= 2 else { return }
        guard write(fd, [0x90, 0x03, subscribe.body[0], subscribe.body[1], 0x01]) else { return }
        var topic = Array("vodapp/devices/hostile/push".utf8)
        func publish(qos: UInt8, id: UInt16, bytes: Int, payload: [UInt8]? = nil) -> Bool {
            let body = payload ?? [UInt8](repeating: UInt8(ascii: "x"), count: bytes)
            var packet: [UInt8] = [0x30 | (qos << 1)]
            packet += remainingLength(2 + topic.count + 2 + body.count)
            packet += [UInt8(topic.count >> 8), UInt8(topic.count & 0xFF)] + topic
            packet += [UInt8(id >> 8), UInt8(id & 0xFF)]
            packet += body
            return write(fd, packet)
        }
        func silence() {
            // Until the client goes: a read that ends with it.
            var byte: UInt8 = 0
            while !state.withLockedValue({ $0.stopped }) {
                let got = recv(fd, &byte, 1, 0)
                if got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return }
            }
        }
        switch behaviour {
        case .unreleasedQoS2Flood(let messageBytes):
            var messageID: UInt16 = 1
            while !state.withLockedValue({ $0.stopped }) {
                guard publish(qos: 2, id: messageID, bytes: messageBytes) else { return }
                messageID = messageID == .max ? 1 : messageID + 1
            }
        case .oneLargeMessage(let bytes):
            guard publish(qos: 1, id: 1, bytes: bytes) else { return }
            silence()
        case .oneMessage(let to, let payload):
            topic = Array(to.utf8)
            guard publish(qos: 1, id: 1, bytes: payload.count, payload: payload) else { return }
            silence()
        }
    }

    private static func remainingLength(_ value: Int) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value % 128)
            value /= 128
            if value > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value > 0
        return bytes
    }

    private static func readPacket(_ fd: Int32) -> (type: UInt8, body: [UInt8])? {
        guard let first = read(fd, count: 1)?.first else { return nil }
        var length = 0
        var multiplier = 1
        for _ in 0..<4 {
            guard let byte = read(fd, count: 1)?.first else { return nil }
            length += Int(byte & 0x7F) * multiplier
            multiplier *= 128
            if byte & 0x80 == 0 { break }
        }
        guard let body = read(fd, count: length) else { return nil }
        return (first >> 4, body)
    }

    private static func read(_ fd: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, count - done) }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            done += sent
        }
        return true
    }
}
