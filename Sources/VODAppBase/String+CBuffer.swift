extension String {
    /// What a C function wrote into `buffer` (a reason, an error message): its bytes up to the
    /// first zero, as UTF-8, with anything invalid replaced.
    public init(writtenInto buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
