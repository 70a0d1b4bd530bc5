import Foundation
import Testing
import UnitTestSupport
import VODAppMux
@testable import VODAppStreams

/// Whether an MP4 part claims more samples than its bytes can hold, before libavformat indexes
/// them: boxes built here, and real fragments made by ffmpeg.
@Suite struct SampleCountBoundTests {
    private func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        be(UInt32(8 + body.count)) + Array(type.utf8) + body
    }

    private func be(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A fragment whose one `trun` claims `samples`, their sizes from a default (4 bytes of box
    /// for any number), then 4,096 bytes of data: the seventh attacker trial's.
    private func fragment(samples: UInt32) -> [UInt8] {
        let trun = box("trun", [0, 0, 0, 1] + be(samples) + be(0))
        return box("moof", box("mfhd", [0, 0, 0, 0] + be(1)) + box("traf", trun)) + box("mdat", Array(repeating: 0, count: 4096))
    }

    @Test func aFragmentClaimingMillionsOfSamplesInAFewBytesIsRefused() {
        let evil = fragment(samples: 60_000_000)
        #expect(SampleCountBound.refusal(of: evil) == "claims 60000000 samples in \(evil.count) bytes, more than media can hold")
        // As many as its bytes can hold, at the bound, passes.
        let fair = fragment(samples: UInt32(fragment(samples: 0).count / SampleCountBound.bytesPerSample))
        #expect(SampleCountBound.refusal(of: fair) == nil)
    }

    @Test func anInitSectionClaimingSamplesIsRefused() {
        let stsz = box("stsz", [0, 0, 0, 0] + be(1000) + be(80_000_000))
        let stts = box("stts", [0, 0, 0, 0] + be(2) + be(40_000_000) + be(1) + be(40_000_000) + be(1))
        for table in [stsz, stts] {
            let initSection = box("ftyp", Array("isom".utf8) + be(0)) + box("moov", box("trak", box("mdia", box("minf", box("stbl", table)))))
            #expect(SampleCountBound.refusal(of: initSection)?.hasPrefix("claims 80000000 samples") == true)
        }
    }

    /// A compressed movie header hides its tables (zlib inside `cmov`), which libavformat
    /// inflates and indexes: refused whatever it holds (the eighth attacker trial's bypass).
    @Test func aCompressedMovieHeaderIsRefused() {
        let cmov = box("cmov", box("dcom", Array("zlib".utf8)) + box("cmvd", be(1000) + [0x78, 0x9C, 1, 2, 3]))
        let initSection = box("ftyp", Array("isom".utf8) + be(0)) + box("moov", cmov)
        #expect(SampleCountBound.refusal(of: initSection) == "has a compressed movie header (cmov), which no stream has")
    }

    /// libavformat rebuilds a track's index once per edit: a track's samples count once for each
    /// entry of its edit list (the eighth trial's 80,000 edits of 60,000 samples took 2 GB).
    @Test func aTracksSamplesCountOnceForEachEdit() {
        func track(samples: UInt32, edits: UInt32) -> [UInt8] {
            let elst = box("elst", [0, 0, 0, 0] + be(edits) + Array(repeating: 0, count: Int(edits) * 12))
            return box("trak", box("edts", elst) + box("mdia", box("minf", box("stbl", box("stsz", [0, 0, 0, 0] + be(1) + be(samples))))))
        }
        let one = box("moov", track(samples: 1000, edits: 1))
        let padded = one + box("free", Array(repeating: 0, count: 20_000))
        #expect(SampleCountBound.refusal(of: padded) == nil)
        let amplified = box("moov", track(samples: 1000, edits: 2000)) + box("free", Array(repeating: 0, count: 20_000))
        #expect(SampleCountBound.refusal(of: amplified)?.hasPrefix("claims 2000000 samples") == true,
                "\(String(describing: SampleCountBound.refusal(of: amplified)))")
        // Two tracks, each its own edits.
        let two = box("moov", track(samples: 1000, edits: 1) + track(samples: 1000, edits: 3)) + box("free", Array(repeating: 0, count: 40_000))
        #expect(SampleCountBound.refusal(of: two) == nil)
    }

    /// Encrypted samples (CENC, PIFF) vodapp cannot decrypt, and libavformat allocates for each
    /// one a `senc` claims (the eighth trial's 16 bytes claiming 10 million took 4.8 GB): an
    /// encrypted sample entry in the init section, or a sample encryption box in a fragment, is
    /// refused whatever it claims.
    @Test func encryptedSamplesAreRefused() {
        let refusal = "is encrypted (Common Encryption, DRM), which vodapp cannot decrypt"
        let senc = box("moof", box("traf", box("senc", [0, 0, 0, 0] + be(10_000_000) + be(0) + be(0))))
        #expect(SampleCountBound.refusal(of: senc) == refusal)
        let piff: [UInt8] = [0xA2, 0x39, 0x4F, 0x52, 0x5A, 0x9B, 0x4F, 0x14, 0xA2, 0x44, 0x6C, 0x42, 0x7C, 0x64, 0x8D, 0xF4]
        #expect(SampleCountBound.refusal(of: box("moof", box("traf", box("uuid", piff + [0, 0, 0, 0] + be(5))))) == refusal)
        let encv = box("encv", Array(repeating: 0, count: 78))
        let stsd = box("stsd", [0, 0, 0, 0] + be(1) + encv)
        let initSection = box("moov", box("trak", box("mdia", box("minf", box("stbl", stsd)))))
        #expect(SampleCountBound.refusal(of: initSection) == refusal)
        // A sample entry in clear passes.
        let clear = box("moov", box("trak", box("mdia", box("minf", box("stbl", box("stsd", [0, 0, 0, 0] + be(1) + box("avc1", Array(repeating: 0, count: 78))))))))
        #expect(SampleCountBound.refusal(of: clear) == nil)
        // Another uuid box is not PIFF's.
        #expect(SampleCountBound.refusal(of: box("uuid", Array(repeating: 7, count: 16) + be(5))) == nil)
    }

    /// The ninth trial's ways: a movie of 100 tracks (libavformat keeps per track what it keeps
    /// per fragment and sample: 4.6 GB), a segment index of 390,000 entries (ordered one
    /// insertion at a time: 47 s), `ctts` counts (unrolled per sample: 5 GB), and one chunk of two
    /// billion samples (`stsc`: 28 s).
    @Test func manyTracksALongSegmentIndexAndCountsInCttsAndStscAreRefused() {
        let track = box("trak", box("mdia", box("minf", box("stbl", box("stsz", [0, 0, 0, 0] + be(1) + be(0))))))
        let nine = box("moov", Array([[UInt8]](repeating: track, count: 9).joined())) + box("free", Array(repeating: 0, count: 1000))
        #expect(SampleCountBound.refusal(of: nine) == "has 9 tracks, more than a stream has (8)")
        let eight = box("moov", Array([[UInt8]](repeating: track, count: 8).joined()))
        #expect(SampleCountBound.refusal(of: eight) == nil)

        func sidx(_ references: Int) -> [UInt8] {
            box("sidx", [0, 0, 0, 0] + be(1) + be(90_000) + be(0) + be(0) + [0, 0, UInt8(references >> 8), UInt8(references & 0xFF)]
                + Array(repeating: 0, count: references * 12))
        }
        #expect(SampleCountBound.refusal(of: sidx(4096)) == nil)
        #expect(SampleCountBound.refusal(of: sidx(4096) + sidx(1)) == "indexes 4097 segments (sidx), more than a stream's part does (4096)")

        for table in [box("ctts", [0, 0, 0, 0] + be(1) + be(16_000_000) + be(0)),
                      box("stsc", [0, 0, 0, 0] + be(1) + be(1) + be(2_000_000_000) + be(1))] {
            let initSection = box("moov", box("trak", box("mdia", box("minf", box("stbl", table)))))
            #expect(SampleCountBound.refusal(of: initSection)?.contains("samples in") == true, "\(String(describing: SampleCountBound.refusal(of: initSection)))")
        }
    }

    /// What is not MP4 boxes, or boxes too broken to walk, is the demuxer's to judge.
    @Test func anythingElsePasses() {
        let ts: [UInt8] = (0..<10).flatMap { _ -> [UInt8] in [0x47, 0x40, 0x00, 0x10] + Array(repeating: 0xFF, count: 184) }
        #expect(SampleCountBound.refusal(of: ts) == nil)
        #expect(SampleCountBound.refusal(of: []) == nil)
        #expect(SampleCountBound.refusal(of: be(0xFFFF_FFFF) + Array("moof".utf8) + [1, 2, 3]) == nil)
        // A 64-bit size, and a size of 0 (to the end), are read as sizes.
        let large = be(1) + Array("moof".utf8) + be(0) + be(16 + 20) + box("trun", [0, 0, 0, 0] + be(99_999) + be(0))
        #expect(SampleCountBound.refusal(of: large)?.hasPrefix("claims 99999 samples") == true)
        let toTheEnd = be(0) + Array("moof".utf8) + box("trun", [0, 0, 0, 0] + be(99_999) + be(0))
        #expect(SampleCountBound.refusal(of: toTheEnd)?.hasPrefix("claims 99999 samples") == true)
    }

    /// Every part of real fMP4 streams ffmpeg cuts, video and audio: none is refused.
    @Test(.enabled(if: isInstalled("ffmpeg"), "needs ffmpeg")) func realFragmentsPass() async throws {
        let scratch = try ScratchDirectory()
        for audioOnly in [false, true] {
            let directory = scratch.child(audioOnly ? "audio" : "video")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let sources = audioOnly ? ["-f", "lavfi", "-i", "sine=duration=3", "-c:a", "aac", "-b:a", "16k"]
                : ["-f", "lavfi", "-i", "testsrc2=size=64x36:rate=25:duration=3", "-f", "lavfi", "-i", "sine=duration=3",
                   "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-b:v", "20k", "-c:a", "aac", "-b:a", "16k"]
            let run = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y"] + sources
                                        + ["-f", "hls", "-hls_time", "1", "-hls_segment_type", "fmp4", "-hls_playlist_type", "vod",
                                           directory + "/index.m3u8"])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let parts = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".m4s") || $0.hasSuffix(".mp4") }
            #expect(parts.count >= 4, "\(parts)")
            for part in parts {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + part)))
                #expect(SampleCountBound.refusal(of: bytes) == nil, "\(part)")
            }
        }
    }
}
