import VODAppBase

/// Why a fetched document is not a DASH manifest vodapp can use. Each case renders as one line;
/// quoted text from the manifest is already sanitized and shortened.
public enum DASHManifestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The XML parser's complaint, with the line it was on.
    case notXML(line: Int, reason: String)
    /// The document's root element is not `MPD`.
    case notAManifest(root: String)
    case missingAttribute(element: String, name: String)
    case badValue(element: String, name: String, value: String)
    /// A URL that is not an http or https URL once resolved.
    case unresolvableURL(String, reason: String)
    /// A `SegmentTemplate`'s `media` or `initialization` with an identifier the standard does
    /// not define, or a `$` left open.
    case badTemplate(String)
    /// A template numbers its segments by duration, and nothing says how long its period is.
    case unknownPeriodLength
    case tooManySegments(count: Int, limit: Int)
    case tooManyElements(limit: Int)
    /// More representations than vodapp chooses among (as an HLS master's variants are bounded).
    case tooManyRepresentations(limit: Int)
    /// The manifest declares a DTD (entities): no real manifest does, and its expansion, even
    /// bounded, costs the parse minutes.
    case declaresEntities

    public var description: String {
        switch self {
        case .notXML(let line, let reason): "it is not well-formed XML (line \(line)): \(reason)"
        case .notAManifest(let root): "its root element is <\(root)>, not <MPD>"
        case .missingAttribute(let element, let name): "a <\(element)> has no \(name)"
        case .badValue(let element, let name, let value): "a <\(element)>'s \(name) is \"\(value)\", which is not valid"
        case .unresolvableURL(let url, let reason): "\"\(url)\" is not a URL vodapp fetches: \(reason)"
        case .badTemplate(let template): "the segment template \"\(template)\" is not valid"
        case .unknownPeriodLength: "a template numbers segments by duration, and no period length or presentation duration is given"
        case .tooManySegments(let count, let limit): "it lists \(count) segments, more than the \(limit) vodapp fetches for one item"
        case .tooManyElements(let limit): "it has more than \(limit) elements"
        case .tooManyRepresentations(let limit): "it offers more than \(limit) representations"
        case .declaresEntities: "it declares a DTD (<!DOCTYPE or <!ENTITY), which no manifest needs"
        }
    }

    /// Text from the manifest, made safe to print and short.
    static func excerpt(_ text: some StringProtocol) -> String {
        UntrustedText.sanitized(String(text), limit: 80, replacingControlsWith: "?")
    }
}
