/// The variants of a stream known to pass a size limit: those of BANDWIDTH `bandwidth` and up
/// passed `sizeLimit` bytes as they arrived. A later delivery under the same limit or a lower one
/// leaves them out of its choice (`applies(under:)`), so that a variant whose BANDWIDTH says less
/// than it is does not cost every push its whole download before the fallback.
public struct VariantCeiling: Sendable, Equatable {
    public let bandwidth: Int
    public let sizeLimit: Int64

    public init(bandwidth: Int, sizeLimit: Int64) {
        self.bandwidth = bandwidth
        self.sizeLimit = sizeLimit
    }

    /// Whether it holds for a delivery with `limit`: a higher limit may let those variants fit.
    public func applies(under limit: Int64) -> Bool { limit <= sizeLimit }

    /// `variants` without those at or above the ceiling; all of them when none is below it (the
    /// smallest is still tried, and fails as it did).
    package func filter(_ variants: [HLSVariant]) -> [HLSVariant] {
        let below = variants.filter { $0.bandwidth < bandwidth }
        return below.isEmpty ? variants : below
    }

    /// The ceiling once `variant` passed `limit` too.
    package static func lowering(_ ceiling: VariantCeiling?, to variant: HLSVariant, under limit: Int64) -> VariantCeiling {
        guard let ceiling, ceiling.sizeLimit == limit else { return VariantCeiling(bandwidth: variant.bandwidth, sizeLimit: limit) }
        return VariantCeiling(bandwidth: min(ceiling.bandwidth, variant.bandwidth), sizeLimit: limit)
    }
}
