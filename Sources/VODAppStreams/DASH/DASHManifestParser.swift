import VODAppTransfer

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

    public static func parse(_ data: [UInt8], url: MediaURL) throws(DASHManifestError) -> DASHManifest {
        let root = try XMLElementTree.parse(data, limit: maximumElements)
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
        var list: XMLElementTree?
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
                next.list = list
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
            let bandwidth = Int(own["bandwidth"] ?? "") ?? 0
            let repBase = try baseURL(of: rep, against: base)
            let repAddressing = try addressing.adding(rep, depth: 2)
            let mime = (own["mimeType"] ?? attributes["mimeType"] ?? "").lowercased()
            representations.append(DASHRepresentation(
                id: id, bandwidth: bandwidth,
                width: Int(own["width"] ?? attributes["width"] ?? ""), height: Int(own["height"] ?? attributes["height"] ?? ""),
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
            return try segmentList(list, base: base)
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

    private static func segmentList(_ list: XMLElementTree, base: MediaURL) throws(DASHManifestError) -> DASHAddressing {
        let scale = Double(max(1, Int64(list.attributes["timescale"] ?? "") ?? 1))
        var durations: [Double] = []
        if let timeline = list.child("SegmentTimeline") {
            for entry in try timelineEntries(timeline) {
                durations += Array(repeating: Double(entry.d) / scale, count: Int(max(0, min(entry.r, 100_000))) + 1)
            }
        }
        let fixed = (Double(list.attributes["duration"] ?? "") ?? 0) / scale
        let initialization = try list.child("Initialization").map { element throws(DASHManifestError) in
            DASHSegmentReference(url: try DASHSegmentTemplate.resolve(element.attributes["sourceURL"] ?? "", against: base),
                                 range: try element.attributes["range"].map { text throws(DASHManifestError) in try range(text, element: "Initialization") })
        }
        var segments: [DASHSegmentReference] = []
        for (index, element) in list.children("SegmentURL").enumerated() {
            segments.append(DASHSegmentReference(
                url: try DASHSegmentTemplate.resolve(element.attributes["media"] ?? "", against: base),
                range: try element.attributes["mediaRange"].map { text throws(DASHManifestError) in try range(text, element: "SegmentURL") },
                duration: index < durations.count ? durations[index] : fixed))
        }
        return .list(initialization: initialization, segments: segments)
    }

    private static func template(_ element: XMLElementTree) throws(DASHManifestError) -> DASHSegmentTemplate {
        let attributes = element.attributes
        // Whole numbers; a fractional one (`duration="2000000.0"`, seen in the wild) is rounded.
        func number(_ name: String) throws(DASHManifestError) -> Int64? {
            guard let text = attributes[name] else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let value = Int64(trimmed) ?? Double(trimmed).flatMap({ $0.isFinite && abs($0) < 9e18 ? Int64($0.rounded()) : nil }),
                  value >= 0 else {
                throw .badValue(element: "SegmentTemplate", name: name, value: DASHManifestError.excerpt(text))
            }
            return value
        }
        return DASHSegmentTemplate(
            media: attributes["media"], initialization: attributes["initialization"] ?? element.child("Initialization")?.attributes["sourceURL"],
            startNumber: try number("startNumber"), endNumber: try number("endNumber"), timescale: try number("timescale"),
            duration: try number("duration"),
            timeline: try element.child("SegmentTimeline").map { timeline throws(DASHManifestError) in try timelineEntries(timeline) })
    }

    private static func timelineEntries(_ timeline: XMLElementTree) throws(DASHManifestError) -> [DASHSegmentTemplate.TimelineEntry] {
        var entries: [DASHSegmentTemplate.TimelineEntry] = []
        for entry in timeline.children("S") {
            func value(_ name: String) throws(DASHManifestError) -> Int64? {
                guard let text = entry.attributes[name] else { return nil }
                guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else {
                    throw .badValue(element: "S", name: name, value: DASHManifestError.excerpt(text))
                }
                return value
            }
            guard let d = try value("d") else { throw .missingAttribute(element: "S", name: "d") }
            entries.append(DASHSegmentTemplate.TimelineEntry(t: try value("t"), d: d, r: try value("r") ?? 0))
        }
        return entries
    }

    // MARK: - Values

    /// The first `BaseURL` child resolved against `base`, else `base`.
    private static func baseURL(of element: XMLElementTree, against base: MediaURL) throws(DASHManifestError) -> MediaURL {
        guard let text = element.child("BaseURL")?.text, !text.isEmpty else { return base }
        return try DASHSegmentTemplate.resolve(text, against: base)
    }

    /// `first-last`, both inclusive, as an HTTP range.
    static func range(_ text: String, element: String) throws(DASHManifestError) -> HLSByteRange {
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int64($0.trimmingCharacters(in: .whitespaces)) }
        guard bounds.count == 2, let first = bounds[0], let last = bounds[1], first >= 0, last >= first, last < Int64.max else {
            throw .badValue(element: element, name: "range", value: DASHManifestError.excerpt(text))
        }
        return HLSByteRange(offset: first, length: last - first + 1)
    }

    /// An ISO 8601 duration, `PnYnMnDTnHnMnS` (a year counted as 365 days, a month as 30), in
    /// seconds.
    static func duration(_ text: String, element: String, name: String) throws(DASHManifestError) -> Double {
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
        guard number.isEmpty, sawValue, seconds.isFinite else { throw bad }
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
