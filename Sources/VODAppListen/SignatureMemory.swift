import Foundation
import NIOConcurrencyHelpers
import VODAppBase
import VODAppPayload

/// The signatures a listener accepted within the last `PushSignature.tolerance`: the same one
/// again is a replay, and is refused.
///
/// An entry is needed only while its timestamp is inside the window (after that the time check
/// refuses the push anyway), so each expires then; and the count is capped. Only the holder of
/// the secret can add an entry, so a full memory refuses new pushes rather than forget one (which
/// would let its replay through); at the cap of 4,096 that is over 13 signed pushes a second,
/// sustained for five minutes.
struct SignatureMemory: Sendable {
    static let defaultCapacity = 4096

    enum Refusal: Error, Equatable {
        case replayed
        case full(capacity: Int)
        /// The memory could not be written (a full disk): taken now, the push could be taken
        /// again by another listener on the same DIR, or after a restart.
        case unrecorded(reason: String)
    }

    let capacity: Int
    let window: Int64
    /// Code → the time (Unix seconds) after which it is forgotten.
    private var expiries: [[UInt8]: Int64] = [:]

    init(capacity: Int = defaultCapacity, window: Int64 = PushSignature.tolerance) {
        self.capacity = capacity
        self.window = window
    }

    var count: Int { expiries.count }

    /// Remembers `code`, signed at `timestamp`, or refuses it as seen before.
    mutating func admit(_ code: [UInt8], signedAt timestamp: Int64, now: Int64) throws(Refusal) {
        expiries = expiries.filter { $0.value >= now }
        guard expiries[code] == nil else { throw .replayed }
        guard expiries.count < capacity else { throw .full(capacity: capacity) }
        // Kept until its time can no longer pass the check, however far ahead it was signed.
        expiries[code] = max(timestamp, now) + window
    }

    /// Forgets `code`: the push it signed was not taken (a full queue, an invalid payload), so
    /// the sender may send the very same request again.
    mutating func forget(_ code: [UInt8]) {
        expiries[code] = nil
    }

    /// Takes in what `other` remembers (another listener's, on the same DIR), each code kept to
    /// the later of its two expiries, as far as the capacity goes.
    mutating func merge(_ other: SignatureMemory) {
        for (code, expiry) in other.expiries where expiries[code].map({ $0 < expiry }) ?? (expiries.count < capacity) {
            expiries[code] = expiry
        }
    }

    /// The memory as a file keeps it: a line `EXPIRY HEX` for each code, oldest expiry first.
    var text: String {
        expiries.sorted { ($0.value, WebhookSignature.hex($0.key)) < ($1.value, WebhookSignature.hex($1.key)) }
            .map { "\($0.value) \(WebhookSignature.hex($0.key))\n" }.joined()
    }

    /// The memory `text` kept, without what expired by `now`. A line that is not `EXPIRY HEX`
    /// is skipped: the file is vodapp's, and a torn one costs at most a replay's refusal.
    init(text: String, now: Int64, capacity: Int = defaultCapacity, window: Int64 = PushSignature.tolerance) {
        self.init(capacity: capacity, window: window)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let expiry = Int64(fields[0]), expiry >= now,
                  let code = WebhookSignature.bytes(fromHex: fields[1]), expiries.count < capacity else { continue }
            // No expiry further than two windows past `now` (a signature from as far ahead as the
            // window allows, kept a window more): a clock set back cannot make one last.
            expiries[code] = min(expiry, now + 2 * window)
        }
    }
}

/// The memory behind a lock, shared by the requests and messages of one listener, and kept in a
/// file (`DIR/.vodapp/signatures`) so that a restart does not forget it: the attacker trial
/// replayed a captured push with success after the listener restarted (a crash, an upgrade, a
/// `systemctl restart`), within the five minutes its time still passes.
package final class SharedSignatureMemory: Sendable {
    private let memory: NIOLockedValueBox<SignatureMemory>
    /// Where the memory is kept; nil: in this process only.
    private let file: String?

    /// - Parameter file: where the memory is kept; what is there (within its window) is read.
    package init(keptAt file: String? = nil, now: Int64 = PushSignature.now()) {
        self.file = file
        memory = NIOLockedValueBox(SignatureMemory())
        if let kept = kept(now: now) { memory.withLockedValue { $0.merge(kept) } }
    }

    /// What the file holds now, within its window.
    private func kept(now: Int64) -> SignatureMemory? {
        guard let file, let bytes = try? SafeFile.contents(of: file, limit: 1 << 20) else { return nil }
        return SignatureMemory(text: String(decoding: bytes, as: UTF8.self), now: now)
    }

    /// Writes the memory to its file, synced and renamed into place, under the lock so that two
    /// writes land in the order they were made. A memory that cannot be written (DIR unwritable)
    /// still refuses replays while this process runs.
    /// Writes the memory; nil when it is written (or kept in memory only), else why not.
    @discardableResult
    private func keep(_ memory: SignatureMemory) -> String? {
        guard let file else { return nil }
        let bytes = Array(memory.text.utf8)
        do {
            try SafeFile.replace(file, with: bytes, writingFirst: file + ".new")
            return nil
        } catch {
            // A DIR no delivery has used yet has no work area: the first signed push makes it.
            guard SafeFile.makeFolder((file as NSString).deletingLastPathComponent) == 0 else { return error.description }
            do {
                try SafeFile.replace(file, with: bytes, writingFirst: file + ".new")
                return nil
            } catch {
                return error.description
            }
        }
    }


    func admit(_ code: [UInt8], signedAt timestamp: Int64, now: Int64) throws(SignatureMemory.Refusal) {
        let refusal = memory.withLockedValue { memory -> SignatureMemory.Refusal? in
            acrossProcesses {
                // Another listener on the same DIR (one for HTTP, one for MQTT) keeps the same
                // file: what it took counts here too, and is not lost when this one writes (the
                // second attacker trial replayed to one listener what the other had taken).
                if let kept = kept(now: now) { memory.merge(kept) }
                do throws(SignatureMemory.Refusal) {
                    try memory.admit(code, signedAt: timestamp, now: now)
                    // Not written, not taken: a push another listener on this DIR, or this one
                    // restarted, could take again (a full disk made two listeners both take it:
                    // fourth attacker trial).
                    if let failure = keep(memory) {
                        memory.forget(code)
                        return .unrecorded(reason: failure)
                    }
                    return nil
                } catch {
                    return error
                }
            }
        }
        if let refusal { throw refusal }
    }

    func forget(_ code: [UInt8]) {
        memory.withLockedValue { memory in
            acrossProcesses {
                if let kept = kept(now: PushSignature.now()) { memory.merge(kept) }
                memory.forget(code)
                keep(memory)
            }
        }
    }

    /// Runs `body` holding an exclusive `flock` on `signatures.lock` beside the file, so that the
    /// check and the addition are one step for every listener of the DIR: two that got the same
    /// push at the same moment both took it (the third attacker trial, 19 times in 20). Without
    /// a work area yet there is no other listener's file to race with.
    private func acrossProcesses<T>(_ body: () -> T) -> T {
        guard let file, let fd = try? SafeFile.open(file + ".lock", O_RDWR | O_CREAT, mode: 0o600) else { return body() }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0, errno == EINTR {}
        return body()
    }
}
