import Testing
import VODAppHLS
import VODAppModel
@testable import VODAppStreams

/// Which variants a remembered ceiling leaves out, and when it holds.
@Suite struct VariantCeilingTests {
    private func variant(_ bandwidth: Int) throws -> HLSVariant {
        HLSVariant(url: try MediaURL("https://media.test/\(bandwidth).m3u8"), bandwidth: bandwidth)
    }

    @Test func variantsAtOrAboveTheCeilingAreLeftOutUnlessNoneIsBelow() throws {
        let variants = try [800_000, 400_000, 200_000].map(variant)
        let ceiling = VariantCeiling(bandwidth: 400_000, sizeLimit: 20 << 20)
        #expect(ceiling.filter(variants).map(\.bandwidth) == [200_000])
        // None below: all are offered, and the choice takes the smallest, which fails as before.
        #expect(VariantCeiling(bandwidth: 100_000, sizeLimit: 20 << 20).filter(variants).count == 3)
    }

    @Test func itHoldsUnderTheSameLimitOrALowerOne() {
        let ceiling = VariantCeiling(bandwidth: 400_000, sizeLimit: 20 << 20)
        #expect(ceiling.applies(under: 20 << 20) && ceiling.applies(under: 10 << 20))
        #expect(!ceiling.applies(under: 30 << 20))
    }

    @Test func eachVariantGivenUpLowersItUnderTheSameLimit() throws {
        let first = VariantCeiling.lowering(nil, to: try variant(800_000), under: 20 << 20)
        #expect(first == VariantCeiling(bandwidth: 800_000, sizeLimit: 20 << 20))
        #expect(VariantCeiling.lowering(first, to: try variant(400_000), under: 20 << 20).bandwidth == 400_000)
        #expect(VariantCeiling.lowering(first, to: try variant(900_000), under: 20 << 20).bandwidth == 800_000)
        // Under another limit, what the earlier one saw says nothing.
        #expect(VariantCeiling.lowering(first, to: try variant(900_000), under: 10 << 20) == VariantCeiling(bandwidth: 900_000, sizeLimit: 10 << 20))
    }
}
