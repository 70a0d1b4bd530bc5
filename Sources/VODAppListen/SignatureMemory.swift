import NIOConcurrencyHelpers
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
}

/// The memory behind a lock, shared by the requests and messages of one listener.
package final class SharedSignatureMemory: Sendable {
    private let memory: NIOLockedValueBox<SignatureMemory>

    package init() {
        memory = NIOLockedValueBox(SignatureMemory())
    }


    func admit(_ code: [UInt8], signedAt timestamp: Int64, now: Int64) throws(SignatureMemory.Refusal) {
        let refusal = memory.withLockedValue { memory -> SignatureMemory.Refusal? in
            do throws(SignatureMemory.Refusal) {
                try memory.admit(code, signedAt: timestamp, now: now)
                return nil
            } catch {
                return error
            }
        }
        if let refusal { throw refusal }
    }

    func forget(_ code: [UInt8]) {
        memory.withLockedValue { $0.forget(code) }
    }
}
