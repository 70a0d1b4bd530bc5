import Logging
import NIOConcurrencyHelpers
import NIOCore
import VODAppBase

/// The HTTP connections open right now, kept under `HTTPLimits.maximumConnections`.
///
/// Holding connections open is the cheapest attack there is: a peer opens them and sends nothing,
/// or a byte now and then. Refusing newcomers at the cap would let such a peer lock everybody
/// out until its connections time out; instead a newcomer takes the place of the connection that
/// has waited longest for its request (its headers or its body). Only connections whose request
/// is being answered are never closed for a newcomer; when all are, the newcomer is closed.
package final class ConnectionRoster: Sendable {
    private struct Entry {
        let channel: any Channel
        /// When the connection began waiting for what it has not sent yet; nil while its request
        /// is being answered.
        var waitingSince: NIODeadline?
    }

    let capacity: Int
    private let warnings: WarningLimiter
    private let entries = NIOLockedValueBox<[ObjectIdentifier: Entry]>([:])

    package init(capacity: Int, warnings: WarningLimiter) {
        self.capacity = capacity
        self.warnings = warnings
    }

    var count: Int {
        entries.withLockedValue { $0.count }
    }

    /// Takes a new connection in, closing the longest-waiting one to make room at the cap.
    /// - Returns: false when there was no room: the caller closes the connection.
    func admit(_ channel: any Channel) -> Bool {
        let (admitted, evicted) = entries.withLockedValue { entries -> (Bool, (any Channel)?) in
            var evicted: (any Channel)?
            if entries.count >= capacity {
                let oldest = entries.compactMap { key, entry in entry.waitingSince.map { (key, $0) } }
                    .min { $0.1 < $1.1 }
                guard let (key, _) = oldest else { return (false, nil) }
                evicted = entries.removeValue(forKey: key)?.channel
            }
            entries[ObjectIdentifier(channel)] = Entry(channel: channel, waitingSince: .now())
            return (true, evicted)
        }
        if let evicted {
            warnings.warn("HTTP connections closed to make room", "closed an HTTP connection to make room: \(capacity) are open, the limit; this one waited longest for its request",
                          metadata: ["from": "http \(evicted.remoteAddress.map(\.shown) ?? "unknown peer")"])
            evicted.close(promise: nil)
        }
        return admitted
    }

    /// Marks the connection as waiting for the peer (true) or being answered (false).
    func setWaiting(_ channel: any Channel, _ waiting: Bool) {
        entries.withLockedValue { entries in
            entries[ObjectIdentifier(channel)]?.waitingSince = waiting ? .now() : nil
        }
    }

    /// Closes every connection waiting for its peer (headers, a body, the next request): when
    /// the listener stops, a slow peer must not hold its graceful shutdown up.
    package func closeWaiting() {
        let waiting = entries.withLockedValue { entries in
            entries.values.filter { $0.waitingSince != nil }.map(\.channel)
        }
        for channel in waiting {
            channel.close(promise: nil)
        }
    }

    func remove(_ channel: any Channel) {
        _ = entries.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}
