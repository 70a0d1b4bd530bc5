import VODAppModel

/// A `SegmentTemplate` (ISO/IEC 23009-1 §5.3.9.4), its attributes merged down from the period and
/// the adaptation set to the representation, each level's own overriding the one above.
public struct DASHSegmentTemplate: Sendable, Equatable {
    /// One `S` of a `SegmentTimeline`: `d` long, repeated `r` more times (−1: up to the next
    /// `S`'s `t`, or the period's end), starting at `t` when given, else where the last ended.
    public struct TimelineEntry: Sendable, Equatable {
        public let t: Int64?
        public let d: Int64
        public let r: Int64

        public init(t: Int64? = nil, d: Int64, r: Int64 = 0) {
            self.t = t
            self.d = d
            self.r = r
        }
    }

    public var media: String?
    public var initialization: String?
    public var startNumber: Int64?
    public var endNumber: Int64?
    public var timescale: Int64?
    /// Each segment's length, in `timescale` units, when there is no timeline.
    public var duration: Int64?
    public var timeline: [TimelineEntry]?

    public init(media: String? = nil, initialization: String? = nil, startNumber: Int64? = nil, endNumber: Int64? = nil,
                timescale: Int64? = nil, duration: Int64? = nil, timeline: [TimelineEntry]? = nil) {
        self.media = media
        self.initialization = initialization
        self.startNumber = startNumber
        self.endNumber = endNumber
        self.timescale = timescale
        self.duration = duration
        self.timeline = timeline
    }

    /// This level's template over the one inherited: what this one leaves out comes from above.
    func merged(over parent: DASHSegmentTemplate?) -> DASHSegmentTemplate {
        guard let parent else { return self }
        return DASHSegmentTemplate(media: media ?? parent.media, initialization: initialization ?? parent.initialization,
                                   startNumber: startNumber ?? parent.startNumber, endNumber: endNumber ?? parent.endNumber,
                                   timescale: timescale ?? parent.timescale, duration: duration ?? parent.duration,
                                   timeline: timeline ?? parent.timeline)
    }

    /// The segments of a representation, in order, with its initialization segment: at most
    /// `limit`, counted before any is listed, so that a template describing billions costs
    /// nothing.
    public func segments(representation id: String, bandwidth: Int, base: MediaURL, periodDuration: Double?,
                         limit: Int) throws(DASHManifestError) -> (initialization: DASHSegmentReference?, segments: [DASHSegmentReference]) {
        guard let media else { throw .missingAttribute(element: "SegmentTemplate", name: "media") }
        let scale = max(1, timescale ?? 1)
        let first = startNumber ?? 1
        let fixed = ["RepresentationID": id, "Bandwidth": String(bandwidth)]
        let initialization = try self.initialization.map { template throws(DASHManifestError) in
            DASHSegmentReference(url: try Self.resolve(try Self.expand(template, fixed: fixed, number: nil, time: nil), against: base))
        }
        // Each segment's start and length, in timescale units. The parser bounds every number
        // to 2^53; sums and products of them are checked all the same, since a template is a
        // hostile server's to write (an overflow trapped: tenth attacker trial).
        let overflow = DASHManifestError.badValue(element: "SegmentTemplate", name: "timeline", value: "past the largest time")
        var times: [(start: Int64, length: Int64)] = []
        if let timeline, !timeline.isEmpty {
            var count = 0
            var at: Int64 = 0
            var plan: [(start: Int64, length: Int64, repeats: Int64)] = []
            for (index, entry) in timeline.enumerated() {
                guard entry.d > 0 else { throw .badValue(element: "S", name: "d", value: String(entry.d)) }
                if let t = entry.t { at = t }
                var repeats = entry.r
                if repeats < 0 {
                    // Up to the next S's start, or the period's end, in floating point: only a
                    // count that fits the limit is taken.
                    let next = index + 1 < timeline.count ? timeline[index + 1].t.map(Double.init) : nil
                    guard let end = next ?? periodDuration.map({ $0 * Double(scale) + Double(timeline.first?.t ?? 0) }) else {
                        throw .unknownPeriodLength
                    }
                    let span = ((end - Double(at)) / Double(entry.d)).rounded(.up)
                    guard span.isFinite, span <= Double(limit) else { throw .tooManySegments(count: Int(min(max(span, 0), 9e15)), limit: limit) }
                    repeats = max(0, Int64(span) - 1)
                }
                guard repeats < Int64(limit), count + Int(repeats) + 1 <= limit else {
                    throw .tooManySegments(count: Int(clamping: Int64(count).addingReportingOverflow(repeats + 1).partialValue), limit: limit)
                }
                count += Int(repeats) + 1
                let (span, spanOverflow) = entry.d.multipliedReportingOverflow(by: repeats + 1)
                let (end, endOverflow) = at.addingReportingOverflow(span)
                guard !spanOverflow, !endOverflow else { throw overflow }
                plan.append((at, entry.d, repeats))
                at = end
            }
            times.reserveCapacity(count)
            for step in plan {
                for index in 0...step.repeats { times.append((step.start + index * step.length, step.length)) }
            }
        } else {
            guard let duration, duration > 0 else { throw .missingAttribute(element: "SegmentTemplate", name: "duration or a SegmentTimeline") }
            let count: Int64
            if let endNumber {
                count = max(0, endNumber - first + 1)
            } else {
                guard let periodDuration, periodDuration.isFinite, periodDuration > 0 else { throw .unknownPeriodLength }
                let exact = periodDuration * Double(scale) / Double(duration)
                guard exact <= Double(limit) else { throw .tooManySegments(count: Int(clamping: Int64(min(exact.rounded(.up), 9e15))), limit: limit) }
                // A last segment shorter than the others still counts; a rounding error of a few
                // timescale units does not make one.
                count = Int64((exact - 1e-6).rounded(.up))
            }
            guard count <= Int64(limit) else { throw .tooManySegments(count: Int(clamping: count), limit: limit) }
            guard count == 0 || !duration.multipliedReportingOverflow(by: count).overflow else { throw overflow }
            times = (0..<count).map { ($0 * duration, duration) }
        }
        var segments: [DASHSegmentReference] = []
        segments.reserveCapacity(times.count)
        for (index, time) in times.enumerated() {
            let name = try Self.expand(media, fixed: fixed, number: first + Int64(index), time: time.start)
            segments.append(DASHSegmentReference(url: try Self.resolve(name, against: base),
                                                 duration: Double(time.length) / Double(scale)))
        }
        return (initialization, segments)
    }

    /// A template with its identifiers replaced (§5.3.9.4.4): `$RepresentationID$`,
    /// `$Bandwidth$`, `$Number$`, `$Time$`, each with an optional `%0Nd` width (`$Number%05d$`),
    /// and `$$` for a dollar sign.
    package static func expand(_ template: String, fixed: [String: String], number: Int64?, time: Int64?) throws(DASHManifestError) -> String {
        guard template.contains("$") else { return template }
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "$") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "$") else { throw .badTemplate(DASHManifestError.excerpt(template)) }
            let token = rest[afterOpen..<close]
            rest = rest[rest.index(after: close)...]
            if token.isEmpty {
                result += "$"
                continue
            }
            let (name, format) = token.firstIndex(of: "%").map { (token[..<$0], Optional(token[$0...])) } ?? (token, nil)
            let value: String
            switch name {
            case "Number": guard let number else { throw .badTemplate(DASHManifestError.excerpt(template)) }; value = try Self.format(number, format, template)
            case "Time": guard let time else { throw .badTemplate(DASHManifestError.excerpt(template)) }; value = try Self.format(time, format, template)
            case "RepresentationID", "Bandwidth":
                guard let fixedValue = fixed[String(name)] else { throw .badTemplate(DASHManifestError.excerpt(template)) }
                value = name == "Bandwidth" ? try Self.format(Int64(fixedValue) ?? 0, format, template) : fixedValue
            default: throw .badTemplate(DASHManifestError.excerpt(template))
            }
            result += value
        }
        return result + rest
    }

    /// `%0Nd` (also `%d`, `%Nd`, and `x`, `X`, `o` for other bases, as FFmpeg's templates allow).
    private static func format(_ value: Int64, _ format: Substring?, _ template: String) throws(DASHManifestError) -> String {
        guard let format else { return String(value) }
        var spec = format.dropFirst()
        guard let conversion = spec.popLast(), spec.allSatisfy(\.isNumber), spec.count <= 2 else {
            throw .badTemplate(DASHManifestError.excerpt(template))
        }
        let width = Int(spec) ?? 0
        let digits: String
        switch conversion {
        case "d", "i", "u": digits = String(value)
        case "x": digits = String(value, radix: 16)
        case "X": digits = String(value, radix: 16, uppercase: true)
        case "o": digits = String(value, radix: 8)
        default: throw .badTemplate(DASHManifestError.excerpt(template))
        }
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// `reference` resolved against `base`; an empty one is `base` itself (a `SegmentURL` or an
    /// `Initialization` without a URL of its own is a range of its representation's file).
    static func resolve(_ reference: String, against base: MediaURL) throws(DASHManifestError) -> MediaURL {
        if reference.allSatisfy(\.isWhitespace) { return base }
        do {
            return try base.resolving(reference)
        } catch {
            throw .unresolvableURL(DASHManifestError.excerpt(reference), reason: error.description)
        }
    }
}
