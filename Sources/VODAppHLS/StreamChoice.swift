/// What was chosen of a stream that offered a choice, for the report: the variant of a master
/// playlist, among how many, and the audio rendition fetched beside it.
public struct StreamChoice: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// An audio rendition, as the master playlist names it.
    public struct Audio: Sendable, Equatable, Encodable {
        public let name: String
        public let language: String?
    }

    /// RESOLUTION, `WIDTHxHEIGHT`, when the master playlist gives it.
    public let resolution: String?
    /// BANDWIDTH, bits per second; nil when the master playlist does not say.
    public let bandwidth: Int?
    /// CODECS (a DASH representation's `codecs`), as given: `["avc1.64001f", "mp4a.40.2"]`; nil
    /// when not given.
    public let codecs: [String]?
    /// How many variants there were.
    public let variants: Int
    /// The audio rendition fetched beside the variant; nil when its audio is in its own segments.
    public let audio: Audio?
    /// How many larger variants were given up as they passed `--max-size` while arriving (their
    /// BANDWIDTH said less); nil when none was.
    public let tooLarge: Int?
    /// How many larger variants were given up as their playlist or a segment failed for good (a
    /// 404), as players switch; nil when none was.
    public let failed: Int?
    /// How many variants were not tried because an earlier delivery saw them pass the same
    /// limit (`ceiling`); nil when none was left out.
    public let knownTooLarge: Int?
    /// What the store keeps for the next delivery: the BANDWIDTH from which variants pass the
    /// size limit, and that limit; nil when none is known to. Not in the report.
    public let ceiling: VariantCeiling?

    private enum CodingKeys: String, CodingKey {
        case resolution, bandwidth, codecs, variants, audio, tooLarge, failed, knownTooLarge
    }

    package init(variant: HLSVariant, of variants: Int, audio: HLSRendition?, tooLarge: Int = 0, failed: Int = 0, knownTooLarge: Int = 0,
         ceiling: VariantCeiling? = nil) {
        self.tooLarge = tooLarge > 0 ? tooLarge : nil
        self.knownTooLarge = knownTooLarge > 0 ? knownTooLarge : nil
        self.failed = failed > 0 ? failed : nil
        self.ceiling = ceiling
        resolution = variant.resolution.map { "\($0)" }
        bandwidth = variant.bandwidth > 0 ? variant.bandwidth : nil
        codecs = variant.codecs.isEmpty ? nil : variant.codecs
        self.variants = variants
        self.audio = audio.map { Audio(name: $0.name, language: $0.language) }
    }

    /// `1280x720, 2500000 bit/s of 3 variants, audio "English" (en)`.
    public var description: String {
        let quality = [resolution, bandwidth.map { "\($0) bit/s" }].compactMap { $0 }.joined(separator: ", ")
        let sound = audio.map { audio in ", audio \"\(audio.name)\"" + (audio.language.map { " (\($0))" } ?? "") } ?? ""
        let fallback = tooLarge.map { ", after \($0) larger one\($0 == 1 ? "" : "s") passed the size limit" } ?? ""
        let broken = failed.map { ", after \($0) larger one\($0 == 1 ? "" : "s") failed for good" } ?? ""
        let known = knownTooLarge.map { ", \($0) known to pass the size limit left out" } ?? ""
        return "\(quality.isEmpty ? "a variant" : quality) of \(variants) variant\(variants == 1 ? "" : "s")\(sound)\(fallback)\(broken)\(known)"
    }
}
