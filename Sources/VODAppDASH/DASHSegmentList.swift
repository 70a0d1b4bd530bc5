import VODAppHLS
import VODAppModel

/// A `SegmentList` as written: each `SegmentURL`'s `media` and `mediaRange`, the
/// `Initialization`, and each segment's duration, with URLs left unresolved. Read once where it
/// stands (a list on an adaptation set serves all its representations) and resolved against a
/// representation's BaseURL only for the tracks chosen (`segments(base:)`): resolving every
/// representation's copy of a long list took minutes (tenth attacker trial).
public struct DASHSegmentList: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let media: String?
        public let range: HLSByteRange?
        public let duration: Double
    }

    /// The `Initialization`: its `sourceURL` (none: the representation's file) and `range`.
    public struct Initialization: Sendable, Equatable {
        public let source: String?
        public let range: HLSByteRange?
    }

    public let initialization: Initialization?
    public let entries: [Entry]

    init(initialization: Initialization?, entries: [Entry]) {
        self.initialization = initialization
        self.entries = entries
    }

    /// The list's segments and initialization segment, resolved against `base`; an entry
    /// without a URL is a range of `base` itself.
    func segments(base: MediaURL) throws(DASHManifestError) -> (initialization: DASHSegmentReference?, segments: [DASHSegmentReference]) {
        let initialization = try self.initialization.map { initialization throws(DASHManifestError) in
            DASHSegmentReference(url: try DASHSegmentTemplate.resolve(initialization.source ?? "", against: base), range: initialization.range)
        }
        var segments: [DASHSegmentReference] = []
        segments.reserveCapacity(entries.count)
        for entry in entries {
            segments.append(DASHSegmentReference(url: try DASHSegmentTemplate.resolve(entry.media ?? "", against: base),
                                                 range: entry.range, duration: entry.duration))
        }
        return (initialization, segments)
    }
}
