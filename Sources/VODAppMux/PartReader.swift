import CAVFormat

/// Feeds one run's parts to libavformat through a custom `AVIOContext`, one part in memory at a
/// time: the demuxer never sees where a part ends.
final class PartReader {
    private let run: MuxRun
    /// Also libavformat's interrupt callback's question, inside whatever it is doing.
    let shouldStop: () -> Bool
    private var next = 0
    private var buffer: [UInt8] = []
    private var offset = 0
    /// Why reading stopped early, if it did: libavformat only sees an end of file.
    private(set) var failure: MuxFailure?

    /// - Parameter shouldStop: asked before each part is read: libavformat reads a whole input
    ///   while it probes it, before the mux's own loop asks.
    init(_ run: MuxRun, shouldStop: @escaping () -> Bool = { false }) {
        self.run = run
        self.shouldStop = shouldStop
    }

    /// Copies up to `count` bytes into `target`; `AVERROR_EOF` after the last part.
    func read(into target: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 {
        while offset == buffer.count {
            guard failure == nil, next < run.count else { return vod_averror_eof() }
            if shouldStop() {
                failure = MuxFailure(.stopped, "stopped while the file was made")
                return vod_averror_eof()
            }
            do {
                buffer = try run.load(next)
            } catch {
                failure = error
                return vod_averror_eof()
            }
            // Before the demuxer indexes what the part's boxes claim (`SampleCountBound`).
            if let refusal = SampleCountBound.refusal(of: buffer) {
                failure = MuxFailure(.unusable, "part \(next + 1) of its run \(refusal)")
                // Nothing of it is read: every later call ends at once, at the loop's guard.
                buffer = []
                offset = 0
                return vod_averror_eof()
            }
            next += 1
            offset = 0
        }
        let copied = min(Int(count), buffer.count - offset)
        buffer.withUnsafeBufferPointer { bytes in
            target.update(from: bytes.baseAddress! + offset, count: copied)
        }
        offset += copied
        return Int32(copied)
    }

    /// An `AVIOContext` that reads through this reader; freed with `avio_context_free` (its
    /// buffer first), while the reader is still alive.
    func context() -> UnsafeMutablePointer<AVIOContext>? {
        let size: Int32 = 1 << 16
        guard let buffer = vod_av_malloc(Int(size)) else { return nil }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        let context = vod_avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, 0, opaque, { opaque, target, count in
            guard let opaque, let target else { return vod_averror_eof() }
            return Unmanaged<PartReader>.fromOpaque(opaque).takeUnretainedValue().read(into: target, count: count)
        }, nil, nil)
        if context == nil { vod_av_free(buffer) }
        return context
    }
}
