import VODAppModel

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
/// - CR, LF and CRLF line ends are read, a BOM is skipped; invalid UTF-8 and NUL become U+FFFD,
///   so the file is text whatever came.
/// - Every time is bounded (a year, in milliseconds, each way) before it is added to: a
///   manifest's durations summed to 2^54 s trapped the conversion (eleventh attacker trial).
/// - It works on bytes, and asks `shouldStop` between segments: 8 MiB of short cues took 2.6 s
///   as strings, after the deadline, for each of a hundred renditions (the same trial).
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
        /// `shouldStop` said so: the budget ran out, or a signal came.
        case stopped

        public var description: String {
            switch self {
            case .notWebVTT(let number): "its segment \(number) is not WebVTT (it does not begin with WEBVTT)"
            case .tooLarge(let limit): "its cues make more than \(limit) bytes"
            case .stopped: "the run ended before it was joined"
            }
        }
    }

    /// The most bytes a joined file may have: hours of dialogue take a few hundred KiB.
    public static let defaultLimit = 8 << 20

    /// The most a time may be, each way, in milliseconds: a year. Sums of bounded times cannot
    /// overflow.
    static let timeBound: Int64 = 366 * 86_400_000

    private struct Cue {
        let start: Int64
        let end: Int64
        /// The timing line's settings (`align:start line:90%`), and the payload's lines, LF
        /// between them.
        let settings: ArraySlice<UInt8>
        let payload: ArraySlice<UInt8>
        /// Its place among the cues, so that cues of one start keep their order.
        let order: Int
    }

    private struct CueKey: Hashable {
        let start: Int64
        let end: Int64
        let payload: ArraySlice<UInt8>
    }

    /// The joined file's bytes.
    /// - Parameters:
    ///   - zero: the media time, seconds, that is the video file's 0.
    ///   - shouldStop: asked between segments; true ends the join (`Failure.stopped`).
    public static func join(_ segments: [Segment], zero: Double = 0, limit: Int = defaultLimit,
                            shouldStop: () -> Bool = { false }) throws(Failure) -> [UInt8] {
        var header: [ArraySlice<UInt8>] = []
        var cues: [Cue] = []
        var seen: Set<CueKey> = []
        // The output's bytes, exactly: "its cues make more than 8388608 bytes" came at 7 MB when
        // each cue was guessed at (attacker trial).
        var size = 8
        let zeroMilliseconds = milliseconds(seconds: zero)
        for (number, segment) in segments.enumerated() {
            if shouldStop() { throw .stopped }
            let text = normalized(segment.bytes)
            var lines = Lines(text)
            guard let first = lines.next(), isSignature(text[first]) else { throw .notWebVTT(segment: number + 1) }
            var shift = milliseconds(seconds: segment.offset)
            while let line = lines.next(), !line.isEmpty {
                if let map = timestampMap(text[line]) { shift = bounded(map - zeroMilliseconds) }
            }
            while let block = lines.nextBlock() {
                let firstLine = text[block[0]]
                if firstLine.starts(with: Self.note) && (firstLine.count == 4 || firstLine.dropFirst(4).first.map(isBlank) == true) { continue }
                if number == 0, cues.isEmpty, isHeaderBlock(firstLine) {
                    let whole = text[block[0].lowerBound..<block[block.count - 1].upperBound]
                    header.append(whole)
                    size += whole.count + 2
                    continue
                }
                // A cue: an optional identifier, then its timings.
                let timingIndex = firstLine.containsArrow ? 0 : 1
                guard timingIndex < block.count, let timing = timings(text[block[timingIndex]]) else { continue }
                let (from, to) = (bounded(timing.start + shift), bounded(timing.end + shift))
                guard to > 0, to >= from else { continue }
                // Its lines, LF between them.
                let payload = timingIndex + 1 < block.count ? text[block[timingIndex + 1].lowerBound..<block[block.count - 1].upperBound] : []
                guard seen.insert(CueKey(start: from, end: to, payload: payload)).inserted else { continue }
                size += width(max(0, from)) + 5 + width(to) + (timing.settings.isEmpty ? 0 : 1 + timing.settings.count) + 1
                    + (payload.isEmpty ? 0 : payload.count + 1) + 1
                guard size <= limit else { throw .tooLarge(limit: limit) }
                cues.append(Cue(start: max(0, from), end: to, settings: timing.settings, payload: payload, order: cues.count))
            }
        }
        cues.sort { ($0.start, $0.order) < ($1.start, $1.order) }
        var out: [UInt8] = []
        out.reserveCapacity(size + 16)
        out += Array("WEBVTT\n\n".utf8)
        for block in header {
            out += block
            out += [0x0A, 0x0A]
        }
        let arrow = Array(" --> ".utf8)
        for cue in cues {
            write(cue.start, to: &out)
            out += arrow
            write(cue.end, to: &out)
            if !cue.settings.isEmpty {
                out.append(0x20)
                out += cue.settings
            }
            out.append(0x0A)
            out += cue.payload
            if !cue.payload.isEmpty { out.append(0x0A) }
            out.append(0x0A)
        }
        return out
    }

    // MARK: - Reading

    private static let note = Array("NOTE".utf8)
    private static let signature = Array("WEBVTT".utf8)
    private static let mapPrefix = Array("X-TIMESTAMP-MAP=".utf8)

    /// The bytes as valid UTF-8 with LF line ends, without a BOM or NUL.
    private static func normalized(_ bytes: [UInt8]) -> [UInt8] {
        var valid = Array(String(decoding: bytes, as: UTF8.self).utf8)
        if valid.starts(with: [0xEF, 0xBB, 0xBF]) { valid.removeFirst(3) }
        guard valid.contains(where: { $0 == 0x0D || $0 == 0x00 }) else { return valid }
        var out: [UInt8] = []
        out.reserveCapacity(valid.count)
        var index = 0
        while index < valid.count {
            let byte = valid[index]
            switch byte {
            case 0x0D:
                out.append(0x0A)
                if index + 1 < valid.count, valid[index + 1] == 0x0A { index += 1 }
            case 0x00:
                out += [0xEF, 0xBF, 0xBD]
            default:
                out.append(byte)
            }
            index += 1
        }
        return out
    }

    /// The lines of a text, as ranges, and its blocks: runs of lines between blank ones.
    private struct Lines {
        let text: [UInt8]
        var position = 0

        init(_ text: [UInt8]) { self.text = text }

        /// The next line, without its LF; after a last LF, one empty line.
        mutating func next() -> Range<Int>? {
            guard position <= text.count else { return nil }
            let start = position
            let end = text[start...].firstIndex(of: 0x0A) ?? text.count
            position = end + 1
            return start..<end
        }

        mutating func nextBlock() -> [Range<Int>]? {
            var block: [Range<Int>] = []
            while let line = next() {
                if line.isEmpty {
                    if block.isEmpty { continue }
                    return block
                }
                block.append(line)
            }
            return block.isEmpty ? nil : block
        }
    }

    /// `WEBVTT`, alone or followed by a space or a tab and anything.
    private static func isSignature(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.starts(with: signature) else { return false }
        return line.count == 6 || isBlank(line[line.startIndex + 6])
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// `STYLE` or `REGION`, alone or followed by a blank.
    private static func isHeaderBlock(_ line: ArraySlice<UInt8>) -> Bool {
        for word in [Array("STYLE".utf8), Array("REGION".utf8)] where line.starts(with: word) {
            if line.count == word.count || isBlank(line[line.startIndex + word.count]) { return true }
        }
        return false
    }

    /// Where an `X-TIMESTAMP-MAP=MPEGTS:m,LOCAL:l` header line puts a cue time of 0 on the
    /// media's clock, milliseconds: `m / 90 - l`. Nil for another line or a map that does not read.
    package static func timestampMap(_ line: ArraySlice<UInt8>) -> Int64? {
        guard line.starts(with: mapPrefix) else { return nil }
        var mpegts: Int64?
        var local: Int64?
        for field in line.dropFirst(mapPrefix.count).split(separator: UInt8(ascii: ",")) {
            let trimmed = field.drop { $0 == 0x20 }
            if trimmed.starts(with: Array("MPEGTS:".utf8)) {
                let digits = trimmed.dropFirst(7)
                guard (1...15).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
                mpegts = digits.reduce(0) { $0 * 10 + Int64($1 - 0x30) }
            } else if trimmed.starts(with: Array("LOCAL:".utf8)) {
                local = milliseconds(trimmed.dropFirst(6))
            }
        }
        guard let mpegts, let local else { return nil }
        return bounded(mpegts / 90 - local)
    }

    /// `start --> end settings`, times in milliseconds: blanks around the arrow, settings after
    /// a blank. Read by hand, byte by byte: it runs once per cue, hundreds of thousands of times.
    private static func timings(_ line: ArraySlice<UInt8>) -> (start: Int64, end: Int64, settings: ArraySlice<UInt8>)? {
        var index = line.startIndex
        func skipBlanks() { while index < line.endIndex, isBlank(line[index]) { index += 1 } }
        func word() -> ArraySlice<UInt8> {
            let from = index
            while index < line.endIndex, !isBlank(line[index]) { index += 1 }
            return line[from..<index]
        }
        skipBlanks()
        guard let start = milliseconds(word()) else { return nil }
        skipBlanks()
        guard word().elementsEqual([0x2D, 0x2D, 0x3E]) else { return nil }
        skipBlanks()
        guard let end = milliseconds(word()) else { return nil }
        skipBlanks()
        var settings = line[index...]
        while let last = settings.last, isBlank(last) { settings = settings.dropLast() }
        return (start, end, settings)
    }

    /// A WebVTT timestamp, `[hh…:]mm:ss.ttt`, in milliseconds (hours of two to nine digits).
    package static func milliseconds(_ text: ArraySlice<UInt8>) -> Int64? {
        // Fields of digits, with what ends each: `:` or `:` then `.` at the end.
        var fields: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
        var widths: (Int, Int, Int, Int) = (0, 0, 0, 0)
        var count = 0
        var dot = false
        for byte in text {
            switch byte {
            case 0x30...0x39:
                let digit = Int64(byte - 0x30)
                switch count {
                case 0: fields.0 = fields.0 * 10 + digit; widths.0 += 1
                case 1: fields.1 = fields.1 * 10 + digit; widths.1 += 1
                case 2: fields.2 = fields.2 * 10 + digit; widths.2 += 1
                default: fields.3 = fields.3 * 10 + digit; widths.3 += 1
                }
                if widths.0 > 9 || widths.1 > 9 || widths.2 > 3 || widths.3 > 3 { return nil }
            case UInt8(ascii: ":"):
                guard !dot, count < 2 else { return nil }
                count += 1
            case UInt8(ascii: "."):
                guard !dot else { return nil }
                dot = true
                count += 1
            default:
                return nil
            }
        }
        guard dot else { return nil }
        // mm:ss.ttt, or hh:mm:ss.ttt.
        let (hours, hoursWidth, minutes, minutesWidth, seconds, secondsWidth, thousandths, thousandthsWidth) = count == 2
            ? (Int64(0), 2, fields.0, widths.0, fields.1, widths.1, fields.2, widths.2)
            : (fields.0, widths.0, fields.1, widths.1, fields.2, widths.2, fields.3, widths.3)
        guard count == 2 || count == 3, (2...9).contains(hoursWidth), minutesWidth == 2, secondsWidth == 2, thousandthsWidth == 3,
              minutes < 60, seconds < 60 else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + thousandths
    }

    /// Seconds as milliseconds, within `timeBound` (NaN is 0).
    static func milliseconds(seconds: Double) -> Int64 {
        guard seconds.isFinite else { return 0 }
        return Int64(max(-Double(timeBound), min(Double(timeBound), (seconds * 1000).rounded())))
    }

    /// A sum of bounded times, bounded again.
    private static func bounded(_ value: Int64) -> Int64 {
        max(-timeBound, min(timeBound, value))
    }

    /// How many bytes `write` writes for a time: `:mm:ss.ttt` after two or more digits of hours.
    private static func width(_ milliseconds: Int64) -> Int {
        let hours = max(0, milliseconds) / 3_600_000
        return 10 + max(2, String(hours).utf8.count)
    }

    /// Milliseconds as `hh:mm:ss.ttt`, onto `out`.
    private static func write(_ milliseconds: Int64, to out: inout [UInt8]) {
        let total = max(0, milliseconds)
        func digits(_ value: Int64, _ width: Int) {
            var text: [UInt8] = []
            var rest = value
            repeat {
                text.append(UInt8(rest % 10) + 0x30)
                rest /= 10
            } while rest > 0
            while text.count < width { text.append(0x30) }
            out += text.reversed()
        }
        digits(total / 3_600_000, 2)
        out.append(UInt8(ascii: ":"))
        digits(total / 60_000 % 60, 2)
        out.append(UInt8(ascii: ":"))
        digits(total / 1000 % 60, 2)
        out.append(UInt8(ascii: "."))
        digits(total % 1000, 3)
    }

    /// Milliseconds as `hh:mm:ss.ttt`.
    package static func timestamp(_ milliseconds: Int64) -> String {
        var out: [UInt8] = []
        write(milliseconds, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

private extension ArraySlice<UInt8> {
    /// Whether `-->` is in it.
    var containsArrow: Bool {
        guard count >= 3 else { return false }
        var index = startIndex
        while index + 2 < endIndex {
            if self[index] == 0x2D, self[index + 1] == 0x2D, self[index + 2] == 0x3E { return true }
            index += 1
        }
        return false
    }
}
