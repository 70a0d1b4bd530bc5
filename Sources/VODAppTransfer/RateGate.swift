import CCurl
import VODAppTransferPolicy

/// `--limit-rate` in one engine run: its transfers take their body bytes from the process's
/// `RateBucket`, and wait, paused, when it is empty.
///
/// libcurl's own limit (`CURLOPT_MAX_RECV_SPEED_LARGE`) is per transfer, and 7.88 checks it only
/// between reads: one pass drains whatever the socket holds, up to a hundred buffers, so a body
/// already in the kernel's buffers arrives at once (3 MB in 70 ms under a 256 KiB/s limit). The
/// gate works in the write callback instead: a chunk the bucket does not admit pauses its transfer
/// (`CURL_WRITEFUNC_PAUSE`: libcurl keeps the chunk and stops reading the socket, so the server's
/// TCP window closes too) until the engine loop sees tokens again and resumes it.
///
/// Lives on the engine thread only, like the transfers it gates.
final class RateGate {
    let bucket: RateBucket
    /// Paused transfers, in the order they were held: they are resumed in that order, so that
    /// each gets its turn.
    private var held: [UnsafeMutableRawPointer] = []

    init(rate: Int64) {
        bucket = .shared(rate: rate)
    }

    /// The libcurl read buffer for a gated transfer: a sixteenth of a second's worth, between
    /// 1 KiB and the engine's usual buffer, so that one chunk overdraws the bucket by little.
    var bufferSize: Int { min(TransferEngine.bufferSize, Int(max(1024, bucket.rate / 16))) }

    /// Whether `handle` may take a chunk of `count` bytes now. When not, it is held, and the write
    /// callback answers `CURL_WRITEFUNC_PAUSE`.
    func admit(_ count: Int, for handle: UnsafeMutableRawPointer) -> Bool {
        if bucket.take(count) { return true }
        if !held.contains(handle) { held.append(handle) }
        return false
    }

    /// Resumes held transfers, first held first, while the bucket has tokens: resuming one hands
    /// it its kept chunk at once, which takes tokens or holds it again. `isRunning` says whether a
    /// handle is still in the multi handle; ended and set-aside transfers are forgotten.
    func release(isRunning: (UnsafeMutableRawPointer) -> Bool) {
        held.removeAll { !isRunning($0) }
        while !held.isEmpty, bucket.untilOpen == .zero {
            curl_easy_pause(held.removeFirst(), CURLPAUSE_CONT)
        }
    }

    /// How long until a held transfer may go on; nil when none is held.
    var untilOpen: Duration? {
        held.isEmpty ? nil : bucket.untilOpen
    }
}
