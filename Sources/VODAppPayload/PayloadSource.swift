import Foundation
import SystemPackage
import VODAppBase

/// Where payload bytes come from on the command line: a file, or standard input for `-`.
public enum PayloadSource: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case standardInput

    public init(argument: String) {
        self = argument == "-" ? .standardInput : .file(argument)
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .standardInput: "standard input"
        }
    }

    /// The same, as the delivery log names it.
    public var deliverySource: DeliverySource {
        switch self {
        case .file(let path): .file(path)
        case .standardInput: .standardInput
        }
    }

    /// Why payload bytes could not be read.
    public enum ReadError: Error, Equatable, Sendable, CustomStringConvertible {
        case unreadable(source: String, reason: String)
        case timedOut(source: String)

        public var description: String {
            switch self {
            case .unreadable(let source, let reason): "cannot read payload from \(source): \(reason)"
            case .timedOut(let source): "gave up waiting for the payload on \(source): the budget ran out"
            }
        }
    }

    /// Reads at most `limit + 1` bytes, so that an oversized payload is detected without reading
    /// all of it, and gives up at `deadline` so that a stdin that never closes cannot hold the run
    /// past its budget.
    /// - Throws: `ReadError`.
    public func read(limit: Int, deadline: ContinuousClock.Instant) throws(ReadError) -> Data {
        let fd: Int32
        switch self {
        case .standardInput:
            fd = STDIN_FILENO
        case .file(let path):
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { throw .unreadable(source: path, reason: Self.errnoText()) }
        }
        defer { if case .file = self { close(fd) } }

        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= limit {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw .timedOut(source: description) }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: remaining.milliseconds + 1))
            if ready < 0 {
                if errno == EINTR { continue }
                throw .unreadable(source: description, reason: Self.errnoText())
            }
            if ready == 0 { continue }
            let wanted = min(buffer.count, limit + 1 - data.count)
            let count = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .unreadable(source: description, reason: Self.errnoText())
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    private static func errnoText() -> String {
        Errno(rawValue: errno).description
    }
}

extension PayloadSource.ReadError: ExitStatusProviding {
    public var exitStatus: ExitStatus { .payloadUnreadable }
}
