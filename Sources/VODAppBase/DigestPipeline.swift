import Dispatch
import Foundation

/// A body's SHA-256 (`FileFingerprint.Running`) taken on a queue of its own while the body is
/// written: the thread that writes hands the bytes over and goes on receiving.
///
/// That thread runs every transfer of a delivery (`TransferEngine`), and SHA-256 costs about half a
/// millisecond a MiB: digested there, four 19 MiB bodies kept each other waiting for 40 ms, a
/// sixth of the delivery. Here the digest runs beside the transfers, on another core.
///
/// The bytes are copied into batches of `batchBytes`; at most `batchesInFlight` wait for the
/// digest, and past that the writer waits for it to catch up, so a link faster than SHA-256 piles
/// up no memory. The copy and the hand-over cost about a tenth more CPU than digesting in place:
/// with a single core to run on, which could only take turns, the digest is taken in place.
///
/// A body that never fills a batch (a small file) is digested by the writer: handing 64 KiB to
/// another thread and waiting for its answer cost more than the digest. One declared that small
/// is digested in place as it comes, with no copy; one of unknown length, when it ends. The queue
/// is made when the first batch is sent.
package final class DigestPipeline: @unchecked Sendable {
    package static let batchBytes = 128 * 1024
    package static let batchesInFlight = 4

    /// Whether this process may run on more than one core (its affinity, as Foundation reads it).
    package static let besideTheWriter = ProcessInfo.processInfo.activeProcessorCount > 1

    // `running` is touched only on `queue` once there is one, before that only by the writer;
    // `batch` and `queue` only by the writer (`update`, `finish`), one thread at a time. The
    // semaphore counts the batches the queue may still take.
    private var running: FileFingerprint.Running
    private var batch: [UInt8] = []
    private let besideTheWriter: Bool
    private var queue: DispatchQueue?
    private let room = DispatchSemaphore(value: DigestPipeline.batchesInFlight)

    /// Continues `running`, which may already hold bytes (a resumed body's kept bytes), on a queue
    /// of its own when `besideTheWriter`, else in the writer's calls.
    /// - Parameter expectedBytes: how many bytes are still to come, when the response said: at
    ///   most one batch, and they are digested in the writer's calls.
    package init(continuing running: FileFingerprint.Running, expectedBytes: Int64? = nil,
                 besideTheWriter: Bool = DigestPipeline.besideTheWriter) {
        self.running = running
        self.besideTheWriter = besideTheWriter && (expectedBytes.map { $0 > Int64(Self.batchBytes) } ?? true)
    }

    /// Hands `chunk`, the next bytes of the body, to the digest.
    package func update(_ chunk: UnsafeRawBufferPointer) {
        guard besideTheWriter else { return running.update(chunk) }
        if batch.capacity == 0 { batch.reserveCapacity(Self.batchBytes) }
        batch.append(contentsOf: chunk)
        if batch.count >= Self.batchBytes { send() }
    }

    /// Waits for every byte handed over to be digested: how many bytes the digest holds (a resumed
    /// body's kept bytes included) and their SHA-256 in hexadecimal.
    package func finish() -> (bytes: Int64, digest: String) {
        guard let queue else {
            // Nothing was handed over: what is left is digested here.
            if !batch.isEmpty { batch.withUnsafeBytes { running.update($0) } }
            batch = []
            return (running.bytes, running.finish())
        }
        if !batch.isEmpty { send() }
        return queue.sync { (running.bytes, running.finish()) }
    }

    private func send() {
        let full = batch
        batch = []
        room.wait()
        let queue = queue ?? DispatchQueue(label: "vodapp-digest", qos: .userInitiated)
        self.queue = queue
        queue.async {
            full.withUnsafeBytes { self.running.update($0) }
            self.room.signal()
        }
    }
}
