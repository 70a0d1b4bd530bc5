/// How many samples an MP4 part may claim for its size, checked before libavformat reads it.
///
/// libavformat's MP4 demuxer makes an index entry for every sample a part's boxes claim (a
/// fragment's `trun`, an init section's `stsz` and `stts`) before any sample's bytes are read,
/// and a box may claim any number: a `trun` whose samples take their size from a default needs
/// 4 bytes to claim four billion. The seventh attacker trial had a 4 KB fragment claiming 60
/// million samples take 2 GB and overrun the budget, and a 260-byte UDP push take a listener to
/// 5.7 GB. Real media holds at least several bytes per sample (an AAC or Opus frame at the
/// lowest rates takes 15 or more), so a part that claims more than one sample per `bytesPerSample`
/// bytes of itself is refused, and the demuxer's index stays within a small multiple of the
/// bytes fetched, which `--max-size` bounds.
package enum SampleCountBound {
    package static let bytesPerSample = 8
    /// The most tracks a part's movie header may have: video, audio, and a few more.
    static let maximumTracks = 8
    /// The most segment index (`sidx`) references a part may have.
    static let maximumReferences: UInt64 = 4096

    /// Why `bytes`, one part as fetched (decrypted), cannot be media, or nil. Anything but MP4
    /// boxes (an MPEG-TS segment, packed audio) passes untouched; so does a malformed box, which
    /// the demuxer refuses on its own.
    package static func refusal(of bytes: [UInt8]) -> String? {
        var tally = Tally()
        walk(bytes, from: 0, to: bytes.count, depth: 0, into: &tally)
        // A compressed movie header (QuickTime's `cmov`, zlib inside `moov`) hides its tables
        // from this look, and libavformat inflates and indexes them: the eighth attacker trial's
        // 89 million samples took 2 GB that way. No HLS or DASH stream has one.
        if tally.compressed { return "has a compressed movie header (cmov), which no stream has" }
        // Encrypted samples (ISO Common Encryption, DRM) vodapp cannot decrypt, and libavformat
        // makes an allocation for each sample a `senc` claims: the eighth trial's 16-byte box
        // claiming 10 million took 4.8 GB and 20 s, in a stream whose playlist named no key.
        if tally.encrypted { return "is encrypted (Common Encryption, DRM), which vodapp cannot decrypt" }
        // libavformat keeps per track what it keeps per fragment and per sample, and orders a
        // segment index's entries one insertion at a time: the ninth trial's 100 tracks took
        // 4.6 GB, and 390,000 index entries in falling order 47 s. A stream has a few tracks,
        // and a part indexes a few segments (a whole film's single file, a few thousand).
        if tally.tracks > maximumTracks { return "has \(tally.tracks) tracks, more than a stream has (\(maximumTracks))" }
        if tally.references > maximumReferences {
            return "indexes \(tally.references) segments (sidx), more than a stream's part does (\(maximumReferences))"
        }
        let claimed = tally.samples
        let allowed = UInt64(bytes.count / bytesPerSample)
        guard claimed > allowed else { return nil }
        return "claims \(claimed) samples in \(bytes.count) bytes, more than media can hold"
    }

    /// What a part's boxes claim, as far as walked.
    private struct Tally {
        /// Index entries the demuxer would make: samples, each track's times its edits.
        var samples: UInt64 = 0
        /// Edit-list entries of the track being walked.
        var edits: UInt64 = 0
        var compressed = false
        /// Whether it has encrypted sample entries or sample encryption boxes (CENC, PIFF).
        var encrypted = false
        var tracks = 0
        /// Segment index (`sidx`) references.
        var references: UInt64 = 0
    }

    /// Boxes that hold the boxes whose counts matter.
    private static let containers: Set<String> = ["moov", "mdia", "minf", "stbl", "edts", "moof", "traf"]

    private static func walk(_ bytes: [UInt8], from start: Int, to end: Int, depth: Int, into tally: inout Tally) {
        var at = start
        // Deep nesting is no MP4 vodapp reads: the demuxer refuses it itself.
        while depth < 8, at + 8 <= end {
            var size = UInt64(word(bytes, at))
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            var header = 8
            if size == 1 {
                guard at + 16 <= end else { return }
                size = UInt64(word(bytes, at + 8)) << 32 | UInt64(word(bytes, at + 12))
                header = 16
            } else if size == 0 {
                size = UInt64(end - at)
            }
            guard size >= UInt64(header), size <= UInt64(end - at) else { return }
            let boxEnd = at + Int(size)
            let body = at + header
            switch type {
            case "cmov":
                tally.compressed = true
            case "trak":
                // libavformat rebuilds a track's index once per edit (`elst`): the eighth attacker
                // trial's 80,000 edits of one 60,000-sample track took 2 GB, nine such 18 GB. A
                // track counts its samples once for each edit.
                var track = Tally()
                walk(bytes, from: body, to: boxEnd, depth: depth + 1, into: &track)
                let (product, overflow) = track.samples.multipliedReportingOverflow(by: max(1, track.edits))
                tally.samples = overflow ? .max : tally.samples.addingReportingOverflow(product).partialValue
                tally.compressed = tally.compressed || track.compressed
                tally.encrypted = tally.encrypted || track.encrypted
                tally.tracks += 1 + track.tracks
                tally.references += track.references
            case "senc":
                tally.encrypted = true
            case "uuid" where boxEnd - body >= 16 && Array(bytes[body..<(body + 16)]) == piffSampleEncryption:
                tally.encrypted = true
            case "stsd":
                tally.encrypted = tally.encrypted || hasEncryptedEntry(bytes, body: body, end: boxEnd)
            case "sidx":
                // Version 0 has 32-bit times and offsets, 1 has 64-bit ones; the count follows.
                let countAt = body < boxEnd ? body + (bytes[body] == 0 ? 22 : 30) : boxEnd
                if countAt + 2 <= boxEnd { tally.references += UInt64(bytes[countAt]) << 8 | UInt64(bytes[countAt + 1]) }
            case "elst":
                tally.edits += body + 8 <= boxEnd ? UInt64(word(bytes, body + 4)) : 0
            case _ where containers.contains(type):
                walk(bytes, from: body, to: boxEnd, depth: depth + 1, into: &tally)
            default:
                let (sum, overflow) = tally.samples.addingReportingOverflow(count(of: type, in: bytes, body: body, end: boxEnd))
                tally.samples = overflow ? .max : sum
            }
            at = boxEnd
        }
    }

    /// PIFF's sample encryption box, a `uuid` box of this id.
    private static let piffSampleEncryption: [UInt8] = [0xA2, 0x39, 0x4F, 0x52, 0x5A, 0x9B, 0x4F, 0x14,
                                                        0xA2, 0x44, 0x6C, 0x42, 0x7C, 0x64, 0x8D, 0xF4]

    /// Whether a sample description (`stsd`: version and flags, a count, then one box per entry)
    /// has an entry for encrypted samples (`encv`, `enca`, …).
    private static func hasEncryptedEntry(_ bytes: [UInt8], body: Int, end: Int) -> Bool {
        var at = body + 8
        while at + 8 <= end {
            let size = Int(word(bytes, at))
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            if ["encv", "enca", "encs", "enct", "encm"].contains(type) { return true }
            guard size >= 8, at + size <= end else { return false }
            at += size
        }
        return false
    }

    /// The samples a full box claims: `trun`'s sample_count, `stsz`'s and `stz2`'s sample_count,
    /// the sums of `stts`'s and `ctts`'s entries' counts (libavformat unrolls `ctts` per sample),
    /// and of `stsc`'s samples per chunk (the ninth trial's one chunk of two billion).
    private static func count(of type: String, in bytes: [UInt8], body: Int, end: Int) -> UInt64 {
        switch type {
        case "trun":
            guard body + 8 <= end else { return 0 }
            return UInt64(word(bytes, body + 4))
        case "stsz", "stz2":
            guard body + 12 <= end else { return 0 }
            return UInt64(word(bytes, body + 8))
        case "stts", "ctts", "stsc":
            // stts and ctts: (count, value) entries; stsc: (first chunk, samples per chunk, …).
            guard body + 8 <= end else { return 0 }
            let entries = Int(word(bytes, body + 4))
            let (width, field) = type == "stsc" ? (12, 4) : (8, 0)
            var total: UInt64 = 0
            var at = body + 8
            for _ in 0..<entries {
                guard at + width <= end else { break }
                total += UInt64(word(bytes, at + field))
                at += width
            }
            return total
        default:
            return 0
        }
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
