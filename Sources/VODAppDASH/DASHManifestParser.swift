import VODAppHLS
import VODAppModel

/// Reads a DASH manifest (MPD) into a `DASHManifest`: BaseURLs resolved at every level (MPD,
/// Period, AdaptationSet, Representation), segment addressing inherited and merged down to each
/// representation, the kind of each adaptation set told from its `contentType`, its or its
/// representations' `mimeType`, or their codecs. Pure: bytes and the manifest's URL in.
///
/// Read as players read: unknown elements and attributes are skipped; a representation without
/// `id` is named by its place; one without `bandwidth` counts as 0.
public enum DASHManifestParser {
    /// The most bytes of a manifest read (what the transfer engine captures for a playlist).
    public static let maximumBytes = 1 << 20
    /// The most elements: a 1 MiB manifest of `<S>` and `<SegmentURL>` elements has fewer.
    static let maximumElements = 100_000
    /// The largest number any count, time or offset may be: 2^53, past every real manifest's
    /// (a broadcaster's times near 10^14), so that sums and products of a few of them, checked
    /// where they could still pass Int64, are exact. A hostile manifest's Int64.max crashed
    /// vodapp on an overflow (tenth attacker trial).
    static let largestNumber: Int64 = 1 << 53
    /// The highest `bandwidth`: 100 Gbit/s.
    static let largestBandwidth: Int64 = 100_000_000_000
    /// The most representations in all: an HLS master playlist's 1,000 variants, and room for
    /// several periods of a few each. Choosing is linear in them.
    static let maximumRepresentations = 1_000

    /// The longest duration: a year of video, where a hostile `P99999999999999999999Y` is 10^27 s.
    static let longestDuration: Double = 366 * 86_400

    public static func parse(_ data: [UInt8], url: MediaURL) throws(DASHManifestError) -> DASHManifest {
        // Entities expanded within libxml2's bounds still took a 1 MiB manifest 111 s to read
        // (tenth attacker trial); no manifest declares any.
        if declaresDTD(data) { throw .declaresEntities }
        let root = try XMLElementTree.parse(data, limit: maximumElements)
        let representations = root.children("Period").reduce(0) { sum, period in
            sum + period.children("AdaptationSet").reduce(0) { $0 + $1.children("Representation").count }
        }
        guard representations <= maximumRepresentations else { throw .tooManyRepresentations(limit: maximumRepresentations) }
        guard root.name == "MPD" else { throw .notAManifest(root: DASHManifestError.excerpt(root.name)) }
        let isDynamic = root.attributes["type"] == "dynamic"
        let total = try root.attributes["mediaPresentationDuration"].map { text throws(DASHManifestError) in
            try duration(text, element: "MPD", name: "mediaPresentationDuration")
        }
        let base = try baseURL(of: root, against: url)
        let periodElements = root.children("Period")
        var starts: [Double?] = []
        for period in periodElements {
            starts.append(try period.attributes["start"].map { text throws(DASHManifestError) in try duration(text, element: "Period", name: "start") })
        }
        var periods: [DASHPeriod] = []
        var elapsed = 0.0
        for (index, element) in periodElements.enumerated() {
            let start = starts[index] ?? (index == 0 ? 0 : elapsed)
            var length = try element.attributes["duration"].map { text throws(DASHManifestError) in
                try duration(text, element: "Period", name: "duration")
            }
            if length == nil, index + 1 < starts.count, let next = starts[index + 1] { length = next - start }
            if length == nil, index + 1 == starts.count, let total { length = total - start }
            if let known = length, !(known > 0) { length = nil }
            periods.append(try period(element, duration: length, base: try baseURL(of: element, against: base)))
            elapsed = start + (length ?? 0)
        }
        return DASHManifest(url: url, isDynamic: isDynamic, duration: total, periods: periods)
    }

    // MARK: - Levels

    /// Segment addressing as inherited so far, and at which level (deeper wins) each kind was
    /// last given.
    private struct Addressing {
        var template: DASHSegmentTemplate?
        var templateDepth = -1
        var list: DASHSegmentList?
        var listDepth = -1
        var base: XMLElementTree?
        var baseDepth = -1

        func adding(_ element: XMLElementTree, depth: Int) throws(DASHManifestError) -> Addressing {
            var next = self
            if let template = element.child("SegmentTemplate") {
                next.template = try DASHManifestParser.template(template).merged(over: self.template)
                next.templateDepth = depth
            }
            if let list = element.child("SegmentList") {
                next.list = try DASHManifestParser.segmentList(list)
                next.listDepth = depth
            }
            if let base = element.child("SegmentBase") {
                next.base = base
                next.baseDepth = depth
            }
            return next
        }
    }

    private static func period(_ element: XMLElementTree, duration: Double?, base: MediaURL) throws(DASHManifestError) -> DASHPeriod {
        let addressing = try Addressing().adding(element, depth: 0)
        var sets: [DASHAdaptationSet] = []
        for set in element.children("AdaptationSet") {
            sets.append(try adaptationSet(set, periodDuration: duration, base: try baseURL(of: set, against: base),
                                          addressing: try addressing.adding(set, depth: 1)))
        }
        return DASHPeriod(id: element.attributes["id"], duration: duration, adaptationSets: sets)
    }

    private static func adaptationSet(_ element: XMLElementTree, periodDuration: Double?, base: MediaURL,
                                      addressing: Addressing) throws(DASHManifestError) -> DASHAdaptationSet {
        let attributes = element.attributes
        let setProtected = element.child("ContentProtection") != nil
        var representations: [DASHRepresentation] = []
        var mimeTypes: [String] = [attributes["mimeType"]].compactMap { $0 }
        var codecs: [String] = []
        for (index, rep) in element.children("Representation").enumerated() {
            let own = rep.attributes
            if let mime = own["mimeType"] { mimeTypes.append(mime) }
            let repCodecs = (own["codecs"] ?? attributes["codecs"] ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            codecs += repCodecs
            let id = own["id"] ?? String(index + 1)
            let bandwidth = Int(try integer(own["bandwidth"], element: "Representation", name: "bandwidth",
                                            in: 0...largestBandwidth) ?? 0)
            func size(_ name: String) throws(DASHManifestError) -> Int? {
                try integer(own[name] ?? attributes[name], element: "Representation", name: name, in: 1...65_535).map { Int($0) }
            }
            let repBase = try baseURL(of: rep, against: base)
            let repAddressing = try addressing.adding(rep, depth: 2)
            let mime = (own["mimeType"] ?? attributes["mimeType"] ?? "").lowercased()
            representations.append(DASHRepresentation(
                id: id, bandwidth: bandwidth,
                width: try size("width"), height: try size("height"),
                codecs: repCodecs, mimeType: mime, isProtected: setProtected || rep.child("ContentProtection") != nil,
                addressing: try address(repAddressing, base: repBase, periodDuration: periodDuration)))
        }
        let component = element.child("ContentComponent")?.attributes["contentType"]
        let kind = kind(contentType: attributes["contentType"] ?? component, mimeTypes: mimeTypes, codecs: codecs)
        let trick = (element.children("EssentialProperty") + element.children("SupplementalProperty"))
            .contains { $0.attributes["schemeIdUri"] == "http://dashif.org/guidelines/trickmode" }
        let label = element.child("Label")?.text
        return DASHAdaptationSet(kind: kind, language: attributes["lang"], label: label.flatMap { $0.isEmpty ? nil : $0 },
                                 roles: element.children("Role").compactMap { $0.attributes["value"] },
                                 isTrickPlay: trick, representations: representations)
    }

    /// How a representation's segments are addressed: the kind given at the deepest level wins.
    private static func address(_ addressing: Addressing, base: MediaURL, periodDuration: Double?) throws(DASHManifestError) -> DASHAddressing {
        let deepest = max(addressing.templateDepth, addressing.listDepth, addressing.baseDepth)
        if deepest < 0 { return .whole(url: base) }
        if addressing.listDepth == deepest, let list = addressing.list {
            return .list(list, base: base)
        }
        if addressing.templateDepth == deepest, let template = addressing.template {
            return .template(template, base: base, periodDuration: periodDuration)
        }
        guard let segmentBase = addressing.base else { return .whole(url: base) }
        let initialization = try segmentBase.child("Initialization")?.attributes["range"].map { text throws(DASHManifestError) in
            try range(text, element: "Initialization")
        }
        guard let indexText = segmentBase.attributes["indexRange"] else { return .whole(url: base) }
        return .indexed(url: base, initialization: initialization, index: try range(indexText, element: "SegmentBase"))
    }

    /// A `SegmentList` read where it stands, its URLs unresolved (`DASHSegmentList`).
    private static func segmentList(_ list: XMLElementTree) throws(DASHManifestError) -> DASHSegmentList {
        let scale = Double(try integer(list.attributes["timescale"], element: "SegmentList", name: "timescale", in: 1...largestNumber) ?? 1)
        let urls = list.children("SegmentURL")
        // A timeline's durations, for as many segments as the list names and no more: its
        // repeats could describe billions (tenth attacker trial: 39 GB asked for).
        var durations: [Double] = []
        if let timeline = list.child("SegmentTimeline") {
            for entry in try timelineEntries(timeline) where durations.count < urls.count {
                let repeats = min(max(0, entry.r), Int64(urls.count - durations.count - 1))
                durations += repeatElement(Double(entry.d) / scale, count: Int(repeats) + 1)
            }
        }
        let fixed = Double(try integer(list.attributes["duration"], element: "SegmentList", name: "duration", in: 0...largestNumber) ?? 0) / scale
        let initialization = try list.child("Initialization").map { element throws(DASHManifestError) in
            DASHSegmentList.Initialization(
                source: element.attributes["sourceURL"],
                range: try element.attributes["range"].map { text throws(DASHManifestError) in try range(text, element: "Initialization") })
        }
        var entries: [DASHSegmentList.Entry] = []
        entries.reserveCapacity(urls.count)
        for (index, element) in urls.enumerated() {
            entries.append(DASHSegmentList.Entry(
                media: element.attributes["media"],
                range: try element.attributes["mediaRange"].map { text throws(DASHManifestError) in try range(text, element: "SegmentURL") },
                duration: index < durations.count ? durations[index] : fixed))
        }
        return DASHSegmentList(initialization: initialization, entries: entries)
    }

    private static func template(_ element: XMLElementTree) throws(DASHManifestError) -> DASHSegmentTemplate {
        let attributes = element.attributes
        func number(_ name: String, from low: Int64 = 0) throws(DASHManifestError) -> Int64? {
            try integer(attributes[name], element: "SegmentTemplate", name: name, in: low...largestNumber)
        }
        return DASHSegmentTemplate(
            media: attributes["media"], initialization: attributes["initialization"] ?? element.child("Initialization")?.attributes["sourceURL"],
            startNumber: try number("startNumber"), endNumber: try number("endNumber"), timescale: try number("timescale", from: 1),
            duration: try number("duration"),
            timeline: try element.child("SegmentTimeline").map { timeline throws(DASHManifestError) in try timelineEntries(timeline) })
    }

    private static func timelineEntries(_ timeline: XMLElementTree) throws(DASHManifestError) -> [DASHSegmentTemplate.TimelineEntry] {
        var entries: [DASHSegmentTemplate.TimelineEntry] = []
        for entry in timeline.children("S") {
            let attributes = entry.attributes
            guard let d = try integer(attributes["d"], element: "S", name: "d", in: 1...largestNumber) else {
                throw .missingAttribute(element: "S", name: "d")
            }
            entries.append(DASHSegmentTemplate.TimelineEntry(t: try integer(attributes["t"], element: "S", name: "t", in: 0...largestNumber),
                                                             d: d, r: try integer(attributes["r"], element: "S", name: "r", in: -1...largestNumber) ?? 0))
        }
        return entries
    }

    // MARK: - Values

    /// Whether the document has `<!DOCTYPE` or `<!ENTITY`, in UTF-8 or either UTF-16.
    package static func declaresDTD(_ data: [UInt8]) -> Bool {
        for word in ["<!DOCTYPE", "<!ENTITY"] {
            let ascii = Array(word.utf8)
            for pattern in [ascii, ascii.flatMap { [$0, 0] }, ascii.flatMap { [0, $0] }] where data.count >= pattern.count {
                var index = data.startIndex
                while let found = data[index...].firstIndex(of: pattern[0]), found + pattern.count <= data.count {
                    if data[found..<found + pattern.count].elementsEqual(pattern) { return true }
                    index = found + 1
                }
            }
        }
        return false
    }

    /// A whole number in `range`, or nil when absent; a fractional one (`duration="2000000.0"`,
    /// seen in the wild) is rounded.
    static func integer(_ text: String?, element: String, name: String, in range: ClosedRange<Int64>) throws(DASHManifestError) -> Int64? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let bound = Double(range.upperBound)
        guard let value = Int64(trimmed) ?? Double(trimmed).flatMap({ $0.isFinite && abs($0) <= bound ? Int64($0.rounded()) : nil }),
              range.contains(value) else {
            throw .badValue(element: element, name: name, value: DASHManifestError.excerpt(text))
        }
        return value
    }

    /// The first `BaseURL` child resolved against `base`, else `base`.
    private static func baseURL(of element: XMLElementTree, against base: MediaURL) throws(DASHManifestError) -> MediaURL {
        guard let text = element.child("BaseURL")?.text, !text.isEmpty else { return base }
        return try DASHSegmentTemplate.resolve(text, against: base)
    }

    /// `first-last`, both inclusive, as an HTTP range.
    package static func range(_ text: String, element: String) throws(DASHManifestError) -> HLSByteRange {
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int64($0.trimmingCharacters(in: .whitespaces)) }
        guard bounds.count == 2, let first = bounds[0], let last = bounds[1], first >= 0, last >= first, last < largestNumber else {
            throw .badValue(element: element, name: "range", value: DASHManifestError.excerpt(text))
        }
        return HLSByteRange(offset: first, length: last - first + 1)
    }

    /// An ISO 8601 duration, `PnYnMnDTnHnMnS` (a year counted as 365 days, a month as 30), in
    /// seconds.
    package static func duration(_ text: String, element: String, name: String) throws(DASHManifestError) -> Double {
        let bad = DASHManifestError.badValue(element: element, name: name, value: DASHManifestError.excerpt(text))
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.first == "P" else { throw bad }
        rest = rest.dropFirst()
        var seconds = 0.0
        var inTime = false
        var number = ""
        var sawValue = false
        for character in rest {
            if character == "T" {
                guard !inTime, number.isEmpty else { throw bad }
                inTime = true
            } else if character.isNumber || character == "." || character == "," {
                number.append(character == "," ? "." : character)
            } else {
                guard let value = Double(number) else { throw bad }
                let unit: Double = switch (character, inTime) {
                case ("Y", false): 365 * 86_400
                case ("M", false): 30 * 86_400
                case ("W", false): 7 * 86_400
                case ("D", false): 86_400
                case ("H", true): 3600
                case ("M", true): 60
                case ("S", true): 1
                default: throw bad
                }
                seconds += value * unit
                number = ""
                sawValue = true
            }
        }
        guard number.isEmpty, sawValue, seconds.isFinite, seconds <= longestDuration else { throw bad }
        return seconds
    }

    /// The kind of an adaptation set: its `contentType`, else the kind its MIME types name, else
    /// its codecs' (video when any codec is video).
    static func kind(contentType: String?, mimeTypes: [String], codecs: [String]) -> DASHAdaptationSet.Kind {
        switch contentType?.lowercased() {
        case "video": return .video
        case "audio": return .audio
        case "text": return .text
        case .some: return .other
        case nil: break
        }
        for mime in mimeTypes.map({ $0.lowercased() }) {
            if mime.hasPrefix("video/") { return codecs.allSatisfy(isAudioCodec) && !codecs.isEmpty ? .audio : .video }
            if mime.hasPrefix("audio/") { return .audio }
            if mime.hasPrefix("text/") || mime == "application/ttml+xml" { return .text }
        }
        if codecs.contains(where: isVideoCodec) { return .video }
        if codecs.contains(where: isAudioCodec) { return .audio }
        if codecs.contains(where: { ["stpp", "wvtt", "tx3g"].contains(codecFamily($0)) }) { return .text }
        return .other
    }

    static func isVideoCodec(_ codec: String) -> Bool {
        ["avc1", "avc3", "hvc1", "hev1", "vp08", "vp09", "vp8", "vp9", "av01", "dvh1", "dvhe", "mp4v"].contains(codecFamily(codec))
    }

    static func isAudioCodec(_ codec: String) -> Bool {
        ["mp4a", "ac-3", "ec-3", "ac-4", "opus", "flac", "vorbis", "dtsc", "dtse", "dtsh", "dtsl", "mhm1", "alac"].contains(codecFamily(codec))
    }

    private static func codecFamily(_ codec: String) -> String {
        String(codec.prefix { $0 != "." }).lowercased()
    }
}
