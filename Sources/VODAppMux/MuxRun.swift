/// One input of a mux: parts read one after another as one byte stream that libavformat demuxes
/// on its own: MPEG-TS segments, or an fMP4 init section and the fragments that follow it.
///
/// A stream becomes several runs where its timestamps start again (`#EXT-X-DISCONTINUITY`) or its
/// init section changes: each run is demuxed afresh, and its timestamps follow the previous run's.
///
/// Read on the thread that muxes, while it muxes: not Sendable.
package struct MuxRun {
    /// How many parts the run has.
    package let count: Int
    /// The bytes of part `index` (0 ..< count), decrypted: read only when the demuxer gets to it.
    package let load: (_ index: Int) throws(MuxFailure) -> [UInt8]

    package init(count: Int, load: @escaping (_ index: Int) throws(MuxFailure) -> [UInt8]) {
        self.count = count
        self.load = load
    }
}
