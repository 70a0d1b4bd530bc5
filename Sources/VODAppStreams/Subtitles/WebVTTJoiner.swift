/// Joins the WebVTT segments of one subtitle rendition into the one file a player loads beside
/// the video. Pure: the segments' bytes and where the video's file starts in, a file out.
///
/// - Every segment is a WebVTT file of its own (RFC 8216 §3.5): one header is kept, and the
///   STYLE and REGION blocks before the first segment's first cue; NOTE blocks and cue
///   identifiers go (two segments may repeat one).
/// - Times move to the video file's timeline. A segment's `X-TIMESTAMP-MAP=MPEGTS:m,LOCAL:l`
///   puts its cue at `l` on the media's clock at `m` (90 kHz); the muxed file's zero is the
///   media time `zero` (`StreamMuxer.Made.start`). Without the map, a cue's time is the stream's
///   own (from its start), moved by the segment's `offset` (the start of its DASH period).
/// - A cue spanning a segment boundary is repeated in both segments: it is kept once. Cues
///   ending before the file starts go; the rest are sorted by start, as the format requires.
/// - CR, LF and CRLF line ends are read, a BOM is skipped; invalid UTF-8 becomes U+FFFD and NUL
///   becomes U+FFFD, so the file is text whatever came.
public enum WebVTTJoiner {
    public struct Segment: Sendable, Equatable {
        public let bytes: [UInt8]
        /// Seconds added to its cue times when it carries no X-TIMESTAMP-MAP.
        public let offset: Double

        public init(_ bytes: [UInt8], offset: Double = 0) {
            self.bytes = bytes
            self.offset = offset
        }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Segment `number` (from 1) does not begin with `WEBVTT`.
        case notWebVTT(segment: Int)
        /// The joined file would pass `limit` bytes.
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .notWebVTT(let number): "its segment \(number) is not WebVTT (it does not begin with WEBVTT)"
            case .tooLarge(let limit): "its cues make more than \(limit) bytes"
            }
        }
    }

    /// The most bytes a joined file may have: hours of dialogue take a few hundred KiB.
    public static let defaultLimit = 8 << 20

    private struct Cue {
        let start: Int64
        let end: Int64
        let settings: Substring
        let payload: [Substring]
    }

    private struct CueKey: Hashable {
        let start: Int64
        let end: Int64
        let text: String
    }

    /// The joined file's bytes.
    /// - Parameter zero: the media time, seconds, that is the video file's 0.
    public static func join(_ segments: [Segment], zero: Double = 0, limit: Int = defaultLimit) throws(Failure) -> [UInt8] {
        var header: [String] = []
        var cues: [Cue] = []
        var seen: Set<CueKey> = []
        var size = 0
        for (number, segment) in segments.enumerated() {
            let text = normalized(segment.bytes)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
            guard let first = lines.first, isSignature(first) else { throw .notWebVTT(segment: number + 1) }
            lines = lines.dropFirst()
            var shift = Int64((segment.offset * 1000).rounded())
            while let line = lines.first, !line.isEmpty {
                if let map = timestampMap(line) { shift = Int64(((map - zero) * 1000).rounded()) }
                lines = lines.dropFirst()
            }
            for block in blocks(lines) {
                let firstLine = block[block.startIndex]
                if firstLine.hasPrefix("NOTE") && (firstLine.count == 4 || firstLine.dropFirst(4).first?.isWhitespace == true) { continue }
                if number == 0, cues.isEmpty, firstLine == "STYLE" || firstLine == "REGION" || firstLine.hasPrefix("STYLE ")
                    || firstLine.hasPrefix("REGION ") {
                    header.append(block.joined(separator: "\n"))
                    size += block.reduce(0) { $0 + $1.utf8.count + 1 }
                    continue
                }
                // A cue: an optional identifier, then its timings.
                let timingIndex = firstLine.contains("-->") ? block.startIndex : block.index(after: block.startIndex)
                guard timingIndex < block.endIndex, let (start, end, settings) = timings(block[timingIndex]) else { continue }
                let (from, to) = (start + shift, end + shift)
                guard to > 0, to >= from else { continue }
                let payload = Array(block[block.index(after: timingIndex)...])
                guard seen.insert(CueKey(start: from, end: to, text: payload.joined(separator: "\n"))).inserted else { continue }
                size += 40 + settings.utf8.count + payload.reduce(0) { $0 + $1.utf8.count + 1 }
                guard size <= limit else { throw .tooLarge(limit: limit) }
                cues.append(Cue(start: max(0, from), end: to, settings: settings, payload: payload))
            }
        }
        // Stable: cues of one start keep their order.
        let sorted = cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        var out = "WEBVTT\n\n"
        for block in header { out += block + "\n\n" }
        for cue in sorted {
            out += timestamp(cue.start) + " --> " + timestamp(cue.end)
            if !cue.settings.isEmpty { out += " " + cue.settings }
            out += "\n"
            for line in cue.payload { out += line + "\n" }
            out += "\n"
        }
        return Array(out.utf8)
    }

    /// The text with one kind of line end, without a BOM, NUL or invalid UTF-8.
    private static func normalized(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .replacingOccurrences(of: "\0", with: "\u{FFFD}")
    }

    /// `WEBVTT`, alone or followed by a space or a tab and anything.
    private static func isSignature(_ line: Substring) -> Bool {
        guard line.hasPrefix("WEBVTT") else { return false }
        return line.count == 6 || line.dropFirst(6).first == " " || line.dropFirst(6).first == "\t"
    }

    /// The lines after the header as blocks: runs of lines between blank ones.
    private static func blocks(_ lines: ArraySlice<Substring>) -> [ArraySlice<Substring>] {
        lines.split(separator: "", omittingEmptySubsequences: true)
    }

    /// The media time, seconds, an `X-TIMESTAMP-MAP=MPEGTS:m,LOCAL:l` header line puts a cue
    /// time of 0 at: `m / 90000 - l`. Nil for another line or a map that does not read.
    package static func timestampMap(_ line: Substring) -> Double? {
        guard line.hasPrefix("X-TIMESTAMP-MAP=") else { return nil }
        var mpegts: Int64?
        var local: Int64?
        for field in line.dropFirst("X-TIMESTAMP-MAP=".count).split(separator: ",") {
            let trimmed = field.drop { $0 == " " }
            if trimmed.hasPrefix("MPEGTS:") {
                let digits = trimmed.dropFirst(7)
                guard digits.count <= 15, let value = Int64(digits), value >= 0 else { return nil }
                mpegts = value
            } else if trimmed.hasPrefix("LOCAL:") {
                local = milliseconds(trimmed.dropFirst(6))
            }
        }
        guard let mpegts, let local else { return nil }
        return Double(mpegts) / 90_000 - Double(local) / 1000
    }

    /// `start --> end settings`, times in milliseconds.
    private static func timings(_ line: Substring) -> (Int64, Int64, Substring)? {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 3, fields[1] == "-->", let start = milliseconds(fields[0]), let end = milliseconds(fields[2]) else {
            return nil
        }
        let settings = fields.count > 3 ? line[fields[3].startIndex...] : ""
        return (start, end, settings)
    }

    /// A WebVTT timestamp, `[hh…:]mm:ss.ttt`, in milliseconds.
    package static func milliseconds(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let last = parts.last else { return nil }
        let secondsParts = last.split(separator: ".", omittingEmptySubsequences: false)
        guard secondsParts.count == 2, secondsParts[0].count == 2, secondsParts[1].count == 3,
              let seconds = Int64(secondsParts[0]), let thousandths = Int64(secondsParts[1]), seconds < 60 else { return nil }
        let minutesText = parts[parts.count - 2]
        guard minutesText.count == 2, let minutes = Int64(minutesText), minutes < 60 else { return nil }
        var hours: Int64 = 0
        if parts.count == 3 {
            guard (2...9).contains(parts[0].count), let value = Int64(parts[0]) else { return nil }
            hours = value
        }
        guard [secondsParts[0], secondsParts[1], minutesText].allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              parts.count == 2 || parts[0].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + thousandths
    }

    /// Milliseconds as `hh:mm:ss.ttt`.
    package static func timestamp(_ milliseconds: Int64) -> String {
        let total = max(0, milliseconds)
        let (hours, minutes, seconds, thousandths) = (total / 3_600_000, total / 60_000 % 60, total / 1000 % 60, total % 1000)
        func padded(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(hours, 2)):\(padded(minutes, 2)):\(padded(seconds, 2)).\(padded(thousandths, 3))"
    }
}
