import Testing
import VODAppBase

@Suite struct ByteSizeTests {
    @Test(arguments: [
        ("20971520", Int64(20_971_520)), ("20M", 20_971_520), ("20m", 20_971_520), ("20MiB", 20_971_520),
        ("512K", 524_288), ("1G", 1_073_741_824), ("1.5M", 1_572_864), ("0", 0), ("100B", 100),
    ])
    func sizesWithBinarySuffixes(text: String, bytes: Int64) {
        #expect(ByteSize.parse(text) == bytes)
    }

    @Test(arguments: ["", "M", "-1", "20X", "1e3", "twenty", "1..2M", "99999999999G", "1.5", "0.5B"])
    func nonsenseIsNotASize(text: String) {
        #expect(ByteSize.parse(text) == nil)
    }
}
