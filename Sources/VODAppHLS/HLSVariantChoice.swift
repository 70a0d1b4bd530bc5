import VODAppModel

/// Which variant of a master playlist to download under a size limit.
///
/// The rule: the best variant whose expected size fits the limit, else the smallest one.
/// - Expected size = `expectedBitsPerSecond` (AVERAGE-BANDWIDTH, else the peak BANDWIDTH, which
///   over-estimates) × `duration` / 8.
/// - "Best" among those that fit is the largest expected size (the highest average rate); ties go
///   to the higher peak BANDWIDTH, then the larger RESOLUTION, then the earlier variant.
/// - When none fits, or the duration is unknown (not a positive finite number) so that none is
///   known to fit, the choice is the lowest expected rate (ties: lower peak BANDWIDTH, then the
///   earlier variant): the one most likely to fit, and the cheapest to try.
/// - With a height cap (`--max-height`), only variants whose RESOLUTION is no taller are
///   candidates; when every one is taller, the shortest are. A variant without a RESOLUTION (an
///   audio-only one) is a candidate only when no variant gives one: a cap asks for a picture.
/// The expectation is only an estimate: the download still has to enforce the limit.
public struct HLSVariantChoice: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// `variant` is expected to fit the limit.
        case fits
        /// No variant is known to fit; `variant` is the smallest.
        case noneKnownToFit
    }

    public let variant: HLSVariant
    /// Its expected size in bytes, nil when the duration is unknown.
    public let expectedBytes: Int64?
    public let reason: Reason

    package init(variant: HLSVariant, expectedBytes: Int64?, reason: Reason) {
        self.variant = variant
        self.expectedBytes = expectedBytes
        self.reason = reason
    }

    /// The choice among `variants` for an item of `duration` seconds and a limit of `sizeLimit`
    /// bytes; nil only when `variants` is empty.
    public static func choose(among all: [HLSVariant], duration: Double, sizeLimit: Int64,
                              maximumHeight: Int? = nil) -> HLSVariantChoice? {
        var variants = all
        if let maximumHeight, let shortest = all.compactMap(\.resolution?.height).min() {
            let low = all.filter { $0.resolution.map { $0.height <= maximumHeight } ?? false }
            variants = low.isEmpty ? all.filter { $0.resolution?.height == shortest } : low
        }
        let known = duration.isFinite && duration > 0
        func expected(_ variant: HLSVariant) -> Double { Double(variant.expectedBitsPerSecond) * duration / 8 }
        func bytes(_ variant: HLSVariant) -> Int64? {
            known ? Int64(exactly: expected(variant).rounded(.up)) ?? Int64.max : nil
        }
        let ordered = variants.enumerated().sorted { left, right in
            let (a, b) = (left.element, right.element)
            if a.expectedBitsPerSecond != b.expectedBitsPerSecond { return a.expectedBitsPerSecond > b.expectedBitsPerSecond }
            if a.bandwidth != b.bandwidth { return a.bandwidth > b.bandwidth }
            let (pixelsA, pixelsB) = (a.resolution?.pixels ?? 0, b.resolution?.pixels ?? 0)
            if pixelsA != pixelsB { return pixelsA > pixelsB }
            return left.offset < right.offset
        }.map(\.element)
        if known, let best = ordered.first(where: { expected($0) <= Double(sizeLimit) }) {
            return HLSVariantChoice(variant: best, expectedBytes: bytes(best), reason: .fits)
        }
        let smallest = variants.enumerated().min { left, right in
            let (a, b) = (left.element, right.element)
            if a.expectedBitsPerSecond != b.expectedBitsPerSecond { return a.expectedBitsPerSecond < b.expectedBitsPerSecond }
            if a.bandwidth != b.bandwidth { return a.bandwidth < b.bandwidth }
            return left.offset < right.offset
        }?.element
        return smallest.map { HLSVariantChoice(variant: $0, expectedBytes: bytes($0), reason: .noneKnownToFit) }
    }
}
