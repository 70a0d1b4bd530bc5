import Testing
import VODAppSamples

/// The generated bodies' bytes: any range of a body is the same bytes wherever it is asked for,
/// which is what lets a test compare a resumed file with the whole.
struct SampleContentTests {
    @Test func aRangeIsThatSliceOfTheWholeBodyAcrossThePeriod() {
        let period = Int64(SampleContent.period)
        let whole = SampleContent.bytes(count: 3 * period + 17)
        #expect(whole.count == Int(3 * period + 17))
        for range in [0..<100, period - 10..<period + 10, 2 * period - 1..<3 * period + 17, 5..<5] {
            #expect(SampleContent.bytes(range) == Array(whole[Int(range.lowerBound)..<Int(range.upperBound)]), "\(range)")
        }
    }

    /// The pattern repeats at a prime period, so a body spliced at a power-of-two offset does not
    /// compare equal to the original.
    @Test func theBytesRepeatOnlyAtThePeriod() {
        let period = Int64(SampleContent.period)
        #expect(SampleContent.bytes(period..<period + 4096) == SampleContent.bytes(count: 4096))
        for shift: Int64 in [1, 4096, 65_536, 131_072] {
            #expect(SampleContent.bytes(shift..<shift + 4096) != SampleContent.bytes(count: 4096), "\(shift)")
        }
    }
}
