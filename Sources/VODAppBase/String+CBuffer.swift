extension String {
    /// What a C function wrote into `buffer` (a reason, an error message): its bytes up to the
    /// first zero, as UTF-8, with anything invalid replaced.
    public init(writtenInto buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why a library loaded at its first use cannot be used, or nil when it can: `load` is its
    /// loader (`vod_curl_load`, `vod_av_load`, …), which answers 0, or not and writes the reason
    /// into the buffer it is given.
    public init?(failureOf load: (UnsafeMutablePointer<CChar>, Int) -> Int32) {
        var why = [CChar](repeating: 0, count: 512)
        guard load(&why, why.count) != 0 else { return nil }
        self.init(writtenInto: why)
    }
}
