import Testing
import VODAppBase

@Suite struct ByteSizeTests {
    @Test(arguments: [
        ("20971520", Int64(20_971_520)), ("20M", 20_971_520), ("20m", 20_971_520), ("20MiB", 20_971_520),
        ("512K", 524_288), ("1G", 1_073_741_824), ("1.5M", 1_572_864), ("0", 0), ("100B", 100), ("512KiB", 524_288),
    ])
    func sizesWithBinarySuffixes(text: String, bytes: Int64) {
        #expect(ByteSize.parse(text) == bytes)
    }

    /// KB, MB, GB are decimal, as GNU coreutils reads them: "3.8MB" is not 3.8 MiB.
    @Test(arguments: [("3.8MB", Int64(3_800_000)), ("500kB", 500_000), ("1GB", 1_000_000_000), ("20mb", 20_000_000)])
    func sizesWithDecimalSuffixes(text: String, bytes: Int64) {
        #expect(ByteSize.parse(text) == bytes)
    }

    @Test(arguments: ["", "M", "-1", "20X", "1e3", "twenty", "1..2M", "99999999999G", "1.5", "0.5B", "MB", "KiB", "B"])
    func nonsenseIsNotASize(text: String) {
        #expect(ByteSize.parse(text) == nil)
    }

    /// Two sizes in one sentence are never shown the same when they differ.
    @Test func twoSizesThatDifferAreNeverShownAlike() {
        #expect(ByteSize.format(80_740_000_000, against: 80_740_500_000) == ("80740000000 bytes", "80740500000 bytes"))
        #expect(ByteSize.format(1 << 20, against: 2 << 20) == ("1.0 MiB", "2.0 MiB"))
        #expect(ByteSize.format(1 << 20, against: 1 << 20) == ("1.0 MiB", "1.0 MiB"))
    }
}
