import Foundation
import SystemPackage
import VODAppBase
import VODAppMediaDirectory

/// Pushes a broker has handed over and no delivery has finished yet, kept in DIR's work area
/// (`DIR/.vodapp/spool`), one file each.
///
/// libmosquitto acknowledges a QoS 1 message to the broker before it hands the message over, so
/// from then on the broker will not send it again: the listener is the only keeper of that push.
/// A push is written here (synced, then renamed into place) before it is queued, and removed
/// when its delivery has run to its end; a push whose delivery a stop cut, or that a crash or a
/// power cut interrupted, is still here at the next start, and is delivered then.
///
/// A file holds the push as it came, after a first line naming the topic it came on
/// (`#topic ` and the topic percent-encoded), so that a push delivered at the next start still
/// says where it came from, and a line `#signed` when the push came with a valid signature (so
/// that it keeps the credentials it earned after a restart). A payload is JSON and never starts
/// with `#`: a file without the lines (written before they existed) is the push alone.
///
/// A push whose delivery the process did not survive twice is set aside (`NAME.crashed`), not
/// delivered again: each delivery is counted in a marker beside its push (`.NAME.started`)
/// from when it is queued to its end, so a marker found at a start is a delivery a crash,
/// SIGKILL or a power cut ended. (A push queued behind the one that crashed is counted too; it
/// takes two such crashes to set it aside.) One that crashed the listener (an overflow in the tenth attacker trial) was
/// replayed at every restart, a crash loop under `Restart=on-failure`; once may be a power cut.
struct PushSpool: Sendable {
    /// A push in the spool: its file's name, which sorts in arrival order.
    struct Entry: Sendable, Hashable, Comparable {
        let name: String

        static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.name < rhs.name }
    }

    enum Failure: Error, CustomStringConvertible {
        case full(limit: Int)
        case unwritable(String)

        var description: String {
            switch self {
            case .full(let limit): "the spool already holds \(limit) undelivered pushes"
            case .unwritable(let reason): "cannot keep the push in the spool: \(reason)"
            }
        }
    }

    /// More pushes than any queue holds waiting: at it, the listener takes no more from the broker
    /// (which keeps them) until deliveries make room, down to `resumeBelow`.
    static let pauseAt = 256
    static let resumeBelow = 192
    /// What the spool holds at most: the pushes a broker hands over in the moment between the
    /// pause and the end of the connection (its window of messages in flight) fit; beyond it, a
    /// flood would fill DIR's disk, and it is refused instead.
    static let limit = 320

    let path: String
    private let directory: MediaDirectory

    init(directory: String) {
        self.directory = MediaDirectory(path: directory)
        path = directory + "/.vodapp/spool"
    }

    /// Creates the spool folder if needed; refuses one that is a link (it could steer pushes to
    /// files outside DIR).
    func prepare() throws(Failure) {
        // DIR's work area itself must not be a link either (planted while the listener runs,
        // it would send the spool outside DIR).
        do {
            _ = try directory.checkWorkArea()
        } catch {
            throw .unwritable(error.description)
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .unwritable("\(path): \(Errno(rawValue: errno).description)")
        }
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .unwritable("\(path) is not a directory")
        }
    }

    /// A push as kept: its bytes, and the topic it came on when the file says.
    struct Kept {
        let payload: Data
        let topic: String?
        var signed = false
    }

    private static let topicLine = Array("#topic ".utf8)
    private static let signedLine = Array("#signed\n".utf8)

    /// The longest topic line: MQTT's longest topic (65,535 bytes), every byte percent-encoded.
    private static let topicLineLimit = topicLine.count + 3 * 65_535 + 1

    /// Writes `payload` durably, after the line naming `topic`, and returns its entry.
    func keep(_ payload: Data, topic: String, signed: Bool = false) throws(Failure) -> Entry {
        try prepare()
        guard entries().count < Self.limit else { throw .full(limit: Self.limit) }
        let milliseconds = UInt64(Date().timeIntervalSince1970 * 1000)
        let name = String(format: "%013llu-%016llx.json", milliseconds, UInt64.random(in: 0...UInt64.max))
        do {
            // Synced before it counts as kept: the broker has been told the push arrived.
            let encoded = topic.addingPercentEncoding(withAllowedCharacters: Self.plainTopicCharacters) ?? ""
            let bytes = Self.topicLine + Array(encoded.utf8) + [UInt8(ascii: "\n")] + (signed ? Self.signedLine : []) + Array(payload)
            try SafeFile.replace("\(path)/\(name)", with: bytes, writingFirst: "\(path)/.\(name).tmp")
        } catch {
            throw .unwritable(error.description)
        }
        SafeFile.syncDirectory(path)
        return Entry(name: name)
    }

    /// The pushes kept, oldest first.
    func entries() -> [Entry] {
        // Listed through the spool's descriptor, reached from DIR through folders of the user's
        // own (`SafeFile.holder`): a work area swapped for someone else's lists nothing.
        guard let (parent, name) = try? SafeFile.holder(of: path), let spool = try? parent.ownFolder(name) else { return [] }
        return spool.entries().filter { entry in
            guard !entry.name.hasPrefix("."), entry.name.hasSuffix(".json") else { return false }
            // Only regular files count (and fill it): a directory planted under a push's name is
            // none.
            return spool.status(entry.name).map { ($0.st_mode & S_IFMT) == S_IFREG } == true
        }.map { Entry(name: $0.name) }.sorted()
    }

    /// What a topic keeps unencoded: letters, digits and the usual separators, never a newline.
    private static let plainTopicCharacters = CharacterSet(charactersIn:
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-_.+#")

    /// The push kept under `entry` (its payload at most `limit` bytes), or nil when the file is
    /// gone, too large, or not vodapp's (a link, a FIFO).
    func push(of entry: Entry, limit: Int) -> Kept? {
        guard let bytes = try? SafeFile.contents(of: "\(path)/\(entry.name)", limit: limit + Self.topicLineLimit + Self.signedLine.count)
        else { return nil }
        guard bytes.starts(with: Self.topicLine) else {
            return bytes.count <= limit ? Kept(payload: Data(bytes), topic: nil) : nil
        }
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        var payload = bytes[(end + 1)...]
        let signed = payload.starts(with: Self.signedLine)
        if signed { payload = payload.dropFirst(Self.signedLine.count) }
        guard payload.count <= limit else { return nil }
        let topic = String(decoding: bytes[Self.topicLine.count..<end], as: UTF8.self).removingPercentEncoding
        return Kept(payload: Data(payload), topic: topic, signed: signed)
    }

    /// Removes the half-written files of a write a crash interrupted (never renamed into place,
    /// so never acknowledged as kept).
    func removeLeftovers() {
        guard let (parent, name) = try? SafeFile.holder(of: path), let spool = try? parent.ownFolder(name) else { return }
        spool.removeFiles { !($0.hasPrefix(".") && $0.hasSuffix(".tmp")) }
    }

    func remove(_ entry: Entry) {
        SafeFile.remove("\(path)/\(entry.name)")
        SafeFile.remove(marker(of: entry))
    }

    // MARK: - Deliveries the process did not survive

    /// How many of a push's deliveries the process did not survive before it is set aside.
    static let crashesTolerated = 2

    private func marker(of entry: Entry) -> String { "\(path)/.\(entry.name).started" }

    /// How many deliveries of the push have begun and not ended.
    func starts(of entry: Entry) -> Int {
        guard let bytes = try? SafeFile.contents(of: marker(of: entry), limit: 32) else { return 0 }
        return Int(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Counts a delivery of the push beginning, durably: a crash from here on is found.
    func markStarted(_ entry: Entry) {
        let count = starts(of: entry) + 1
        try? SafeFile.replace(marker(of: entry), with: Array("\(count)\n".utf8), writingFirst: marker(of: entry) + ".tmp")
    }

    /// The push's delivery ended, delivered or not, with the process alive.
    func markEnded(_ entry: Entry) {
        SafeFile.remove(marker(of: entry))
    }

    /// Sets aside, as `NAME.crashed`, each push whose delivery the process did not survive
    /// `crashesTolerated` times; returns their new names. Markers of pushes gone are removed.
    func setAsideCrashed() -> [String] {
        var setAside: [String] = []
        for entry in entries() where starts(of: entry) >= Self.crashesTolerated {
            let name = entry.name + ".crashed"
            guard SafeFile.renameWithoutReplacing("\(path)/\(entry.name)", to: "\(path)/\(name)") == 0 else { continue }
            markEnded(entry)
            setAside.append(name)
        }
        if !setAside.isEmpty { SafeFile.syncDirectory(path) }
        guard let (parent, name) = try? SafeFile.holder(of: path), let spool = try? parent.ownFolder(name) else { return setAside }
        let kept = Set(entries().map(\.name))
        spool.removeFiles { file in
            guard file.hasPrefix("."), file.hasSuffix(".started") else { return true }
            return kept.contains(String(file.dropFirst().dropLast(".started".count)))
        }
        return setAside
    }
}
