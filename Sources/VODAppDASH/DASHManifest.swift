import VODAppHLS
import VODAppModel

/// A DASH Media Presentation Description (ISO/IEC 23009-1), as far as downloading it needs: its
/// periods, their adaptation sets, and how each representation's segments are addressed.
/// BaseURLs are resolved and segment addressing inherited down to each representation when the
/// manifest is read (`DASHManifestParser`), so nothing here looks up the tree again.
public struct DASHManifest: Sendable, Equatable {
    /// Where the manifest was fetched from (after redirects): relative BaseURLs resolve against it.
    public let url: MediaURL
    /// `type="dynamic"`: a live presentation, whose segments change as it plays.
    public let isDynamic: Bool
    /// `mediaPresentationDuration`, seconds, when given.
    public let duration: Double?
    public let periods: [DASHPeriod]

    public init(url: MediaURL, isDynamic: Bool, duration: Double?, periods: [DASHPeriod]) {
        self.url = url
        self.isDynamic = isDynamic
        self.duration = duration
        self.periods = periods
    }

    /// The presentation's length: `mediaPresentationDuration`, else the periods' durations
    /// summed when each has one.
    public var totalDuration: Double? {
        if let duration { return duration }
        let durations = periods.map(\.duration)
        return durations.allSatisfy { $0 != nil } && !durations.isEmpty ? durations.reduce(0) { $0 + ($1 ?? 0) } : nil
    }
}

/// One `Period`: a stretch of the presentation with its own adaptation sets.
public struct DASHPeriod: Sendable, Equatable {
    public let id: String?
    /// Its length, seconds: `duration`, else up to the next period's `start`, else (the last
    /// period) up to the end of the presentation; nil when none of these is given.
    public let duration: Double?
    public let adaptationSets: [DASHAdaptationSet]

    public init(id: String?, duration: Double?, adaptationSets: [DASHAdaptationSet]) {
        self.id = id
        self.duration = duration
        self.adaptationSets = adaptationSets
    }
}

/// One `AdaptationSet`: interchangeable encodings of one content component.
public struct DASHAdaptationSet: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case video, audio, text, other
    }

    public let kind: Kind
    /// `lang`, an RFC 5646 tag, when given.
    public let language: String?
    /// `Label`, or the `lang`, for a person.
    public let label: String?
    /// `Role` values (`main`, `alternate`, `commentary`, `description`, …).
    public let roles: [String]
    /// A trick-play set (`EssentialProperty` `http://dashif.org/guidelines/trickmode`): key
    /// frames for scrubbing, not something to watch.
    public let isTrickPlay: Bool
    public let representations: [DASHRepresentation]

    public init(kind: Kind, language: String?, label: String?, roles: [String], isTrickPlay: Bool,
                representations: [DASHRepresentation]) {
        self.kind = kind
        self.language = language
        self.label = label
        self.roles = roles
        self.isTrickPlay = isTrickPlay
        self.representations = representations
    }
}

/// One `Representation`: one encoding, and where its segments are.
public struct DASHRepresentation: Sendable, Equatable {
    public let id: String
    /// `bandwidth`, bits per second (required by the standard; 0 when missing).
    public let bandwidth: Int
    public let width: Int?
    public let height: Int?
    /// `codecs` split at commas: `["avc1.64001f", "mp4a.40.2"]` for a muxed one.
    public let codecs: [String]
    /// Its `mimeType`, or its adaptation set's, lowercased: `video/mp4`, `audio/webm`.
    public let mimeType: String
    /// `ContentProtection` on it or its adaptation set: encrypted, DRM.
    public let isProtected: Bool
    public let addressing: DASHAddressing

    public init(id: String, bandwidth: Int, width: Int?, height: Int?, codecs: [String], mimeType: String = "", isProtected: Bool,
                addressing: DASHAddressing) {
        self.mimeType = mimeType
        self.id = id
        self.bandwidth = bandwidth
        self.width = width
        self.height = height
        self.codecs = codecs
        self.isProtected = isProtected
        self.addressing = addressing
    }

    /// Whether it is WebM, which an MP4 cannot be muxed from (libavformat's Matroska demuxer is
    /// not one vodapp reads through).
    public var isWebM: Bool { mimeType.hasSuffix("/webm") }

    /// Whether vodapp can fetch and mux it: neither encrypted nor WebM.
    public var isUsable: Bool { !isProtected && !isWebM }

    /// Whether its codecs name audio beside video: a muxed representation, whose own audio plays.
    public var carriesAudio: Bool { codecs.contains(where: DASHManifestParser.isAudioCodec) }
}

/// Where a representation's segments are (ISO/IEC 23009-1 §5.3.9).
public enum DASHAddressing: Sendable, Equatable {
    /// `SegmentTemplate` (inherited and merged down to the representation), with its
    /// representation's BaseURL and its period's length, listed on demand (`DASHSegmentList`):
    /// a template may describe millions of segments, and only the chosen ones are ever listed.
    case template(DASHSegmentTemplate, base: MediaURL, periodDuration: Double?)
    /// `SegmentList`: the segments as written, resolved against `base` when listed.
    case list(DASHSegmentList, base: MediaURL)
    /// `SegmentBase`: one file, whose segments its `sidx` (at `index`) lists.
    case indexed(url: MediaURL, initialization: HLSByteRange?, index: HLSByteRange)
    /// One file, nothing said of its segments: fetched whole.
    case whole(url: MediaURL)
}

/// One segment, or an initialization segment, as a list or a segment index names it.
public struct DASHSegmentReference: Sendable, Equatable {
    public let url: MediaURL
    /// The bytes of `url` that hold it, when not all.
    public let range: HLSByteRange?
    /// Seconds; 0 for an initialization segment.
    public let duration: Double

    public init(url: MediaURL, range: HLSByteRange? = nil, duration: Double = 0) {
        self.url = url
        self.range = range
        self.duration = duration
    }
}
