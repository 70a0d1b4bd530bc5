import VODAppModel
import Foundation

/// One pass over a playlist's lines, for `HLSPlaylist.parse`.
///
/// Not handled, on purpose: `#EXT-X-I-FRAME-STREAM-INF` (see `HLSMasterPlaylist`); `#EXT-X-PROGRAM-DATE-TIME`, `#EXT-X-DATERANGE`, `#EXT-X-START`,
/// `#EXT-X-DISCONTINUITY-SEQUENCE`, `#EXT-X-SESSION-KEY`/`-DATA`, `#EXT-X-VERSION` (ignored like
/// any unknown tag); and from later drafts `#EXT-X-DEFINE` variable substitution and the
/// low-latency `#EXT-X-PART`/`#EXT-X-SKIP` tags.
struct HLSPlaylistParser {
    private let url: MediaURL
    private let maximumSegments: Int

    private var variants: [HLSVariant] = []
    private var renditions: [HLSRendition] = []
    private var pendingStreamInf: (attributes: HLSAttributeList, line: Int)?
    private var firstStreamInfLine: Int?

    private var targetDuration: Int?
    private var mediaSequence: UInt64 = 0
    private var mediaSequenceLine = 0
    private var playlistType: HLSMediaPlaylist.PlaylistType?
    private var hasEndList = false
    private var isIFramesOnly = false
    private var segments: [HLSSegment] = []
    private var firstExtinfLine: Int?
    private var pendingExtinf: (duration: Double, title: String?, line: Int)?
    private var pendingByteRange: (length: Int64, offset: Int64?, line: Int)?
    private var pendingDiscontinuity = false
    /// `#EXT-X-GAP` before the next segment: it is listed, not there, and skipped.
    private var pendingGap = false
    /// Segments listed with `#EXT-X-GAP`: they count in the media sequence.
    private var gaps: UInt64 = 0
    /// The keys in effect, at most one per KEYFORMAT (RFC 8216 §4.3.2.4: a KEY lasts until the
    /// next KEY of the same format), in the order they appeared.
    private var keys: [KeyTag] = []
    private var map: MapTag?
    /// Where the last byte range of each URL ended, for a BYTERANGE without an offset.
    private var rangeEnds: [String: Int64] = [:]

    private struct KeyTag {
        let method: HLSKey.Method
        let uri: String
        let url: MediaURL?
        let iv: [UInt8]?
        let keyFormat: String

        func key(sequenceNumber: UInt64) -> HLSKey {
            HLSKey(method: method, uri: uri, url: url, iv: iv ?? HLSKey.iv(forSequenceNumber: sequenceNumber),
                   hasExplicitIV: iv != nil, keyFormat: keyFormat)
        }
    }

    private struct MapTag {
        let url: MediaURL
        let byteRange: HLSByteRange?
        let key: KeyTag?
        /// Built for the first segment after the tag: a key without IV uses that segment's
        /// sequence number, as ffmpeg's and hls.js's players do (RFC 8216 leaves it open).
        var built: HLSMap?
    }

    /// When to stop reading, if the run has a deadline.
    let deadline: ContinuousClock.Instant?

    init(url: MediaURL, maximumSegments: Int = HLSPlaylist.maximumSegments, deadline: ContinuousClock.Instant? = nil) {
        self.url = url
        self.maximumSegments = max(0, maximumSegments)
        self.deadline = deadline
    }

    mutating func parse(_ text: String) throws(HLSPlaylistError) -> HLSPlaylist {
        // Line by line, not split whole first: in a debug build, splitting 40,000 lines is a
        // good part of a second that the deadline could not cut.
        var lines = Lines(text: text)
        var first = lines.next()
        // Blank lines and comments (`#` but not `#EXT`) before `#EXTM3U`, as players allow.
        while let line = first, line.text.isEmpty || line.text.hasPrefix("#") && !line.text.hasPrefix("#EXT") {
            first = lines.next()
        }
        guard let first, first.text == "#EXTM3U" || first.text == "\u{FEFF}#EXTM3U" else {
            throw .notAPlaylist(firstLine: HLSPlaylistError.excerpt(first?.text ?? ""))
        }
        while let line = lines.next() {
            // Every few hundred lines: reading the clock per line would cost more than the line.
            if let deadline, line.number % 256 == 0, ContinuousClock.now >= deadline { throw .outOfTime }
            if line.text.isEmpty { continue }
            if line.text.hasPrefix("#") {
                if line.text.hasPrefix("#EXT") { try tag(line.text, line: line.number) }
                continue
            }
            try uri(line.text, line: line.number)
        }
        if let pending = pendingStreamInf { throw .missingURI(tag: "EXT-X-STREAM-INF", line: pending.line) }
        // A last #EXTINF with no URI after it (a playlist cut as it was written) lists nothing.
        if !variants.isEmpty { return .master(HLSMasterPlaylist(url: url, variants: variants, renditions: renditions)) }
        guard !segments.isEmpty else { throw .noSegments }
        return .media(HLSMediaPlaylist(url: url, targetDuration: targetDuration, mediaSequence: mediaSequence,
                                       playlistType: playlistType, hasEndList: hasEndList, isIFramesOnly: isIFramesOnly,
                                       segments: segments))
    }

    /// The lines of a text in order, each numbered from 1 and trimmed.
    private struct Lines: IteratorProtocol {
        let text: String
        var start: String.Index
        var number = 0
        var done = false

        init(text: String) {
            self.text = text
            start = text.startIndex
        }

        mutating func next() -> (number: Int, text: Substring)? {
            guard !done else { return nil }
            // LF, CRLF, or a lone CR (a French broadcaster's master playlist), as hls.js reads.
            let utf8 = text.utf8
            let end = utf8[start...].firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } ?? text.endIndex
            let line = text[start..<end]
            if end == text.endIndex {
                done = true
            } else {
                var next = utf8.index(after: end)
                if utf8[end] == UInt8(ascii: "\r"), next < utf8.endIndex, utf8[next] == UInt8(ascii: "\n") { next = utf8.index(after: next) }
                start = next
            }
            number += 1
            return (number, HLSPlaylistParser.trimmed(line))
        }
    }

    private static func trimmed(_ line: Substring) -> Substring {
        var line = line
        while let last = line.unicodeScalars.last, last == "\r" || last == " " || last == "\t" {
            line = Substring(line.unicodeScalars.dropLast())
        }
        while let first = line.unicodeScalars.first, first == " " || first == "\t" {
            line = Substring(line.unicodeScalars.dropFirst())
        }
        return line
    }

    private mutating func tag(_ text: Substring, line: Int) throws(HLSPlaylistError) {
        let colon = text.firstIndex(of: ":")
        let name = String(text[text.index(after: text.startIndex)..<(colon ?? text.endIndex)])
        let value = colon.map { text[text.index(after: $0)...] } ?? ""
        switch name {
        case "EXT-X-STREAM-INF":
            if let pending = pendingStreamInf { throw .missingURI(tag: name, line: pending.line) }
            if let media = firstExtinfLine { throw .mixedPlaylist(line: max(media, line)) }
            firstStreamInfLine = firstStreamInfLine ?? line
            pendingStreamInf = (try HLSAttributeList(value, tag: name, line: line), line)
        case "EXTINF":
            if let pending = pendingExtinf { throw .missingURI(tag: name, line: pending.line) }
            if let master = firstStreamInfLine { throw .mixedPlaylist(line: max(master, line)) }
            firstExtinfLine = firstExtinfLine ?? line
            // `<duration>,[<title>]`; the comma is required since version 3 but older writers
            // leave it out when there is no title.
            let comma = value.firstIndex(of: ",")
            let durationText = Self.trimmed(value[..<(comma ?? value.endIndex)])
            guard let duration = HLSAttributeList.decimalFloat(durationText), duration.isFinite else {
                throw .badValue(tag: name, line: line, detail: "duration \"\(HLSPlaylistError.excerpt(durationText))\" is not a number of seconds")
            }
            let title = comma.map { Self.trimmed(value[value.index(after: $0)...]) }.flatMap { $0.isEmpty ? nil : String($0) }
            pendingExtinf = (duration, title, line)
        case "EXT-X-BYTERANGE":
            let (length, offset) = try Self.byteRange(value, tag: name, line: line)
            pendingByteRange = (length, offset, line)
        case "EXT-X-TARGETDURATION":
            // An integer by RFC 8216; a fraction is rounded up rather than refused.
            guard let seconds = HLSAttributeList.decimalFloat(value), seconds < 1e9 else {
                throw .badValue(tag: name, line: line, detail: "\"\(HLSPlaylistError.excerpt(value))\" is not a number of seconds")
            }
            targetDuration = Int(seconds.rounded(.up))
        case "EXT-X-MEDIA-SEQUENCE":
            guard segments.isEmpty && pendingExtinf == nil else {
                throw .badValue(tag: name, line: line, detail: "comes after the first segment")
            }
            // A negative one (seen in the wild) counts from 0, as hls.js reads it.
            let negative = value.hasPrefix("-") && HLSAttributeList.decimalInteger(value.dropFirst()) != nil
            guard let number = negative ? 0 : HLSAttributeList.decimalInteger(value) else {
                throw .badValue(tag: name, line: line, detail: "\"\(HLSPlaylistError.excerpt(value))\" is not a whole number")
            }
            mediaSequence = number
            mediaSequenceLine = line
        case "EXT-X-PLAYLIST-TYPE":
            guard let type = HLSMediaPlaylist.PlaylistType(rawValue: String(value)) else {
                throw .badValue(tag: name, line: line, detail: "\"\(HLSPlaylistError.excerpt(value))\" is neither VOD nor EVENT")
            }
            playlistType = type
        case "EXT-X-ENDLIST":
            hasEndList = true
        case "EXT-X-I-FRAMES-ONLY":
            isIFramesOnly = true
        case "EXT-X-DISCONTINUITY":
            pendingDiscontinuity = true
        case "EXT-X-GAP":
            pendingGap = true
        case "EXT-X-KEY":
            try key(HLSAttributeList(value, tag: name, line: line))
        case "EXT-X-MAP":
            let attributes = try HLSAttributeList(value, tag: name, line: line)
            let mapURL = try resolve(attributes.required("URI"), line: line)
            var range: HLSByteRange?
            if let text = attributes.string("BYTERANGE") {
                let (length, offset) = try Self.byteRange(Substring(text), tag: name, line: line)
                range = try Self.checkedRange(offset: offset ?? 0, length: length, tag: name, line: line)
            }
            map = MapTag(url: mapURL, byteRange: range, key: currentKey)
        case "EXT-X-MEDIA":
            try rendition(HLSAttributeList(value, tag: name, line: line))
        default:
            // #EXT-X-I-FRAME-STREAM-INF among them: see HLSMasterPlaylist.
            break
        }
    }

    /// An `#EXT-X-MEDIA`: a rendition of a kind vodapp knows, with its group and name. One of an
    /// unknown TYPE is skipped, as players skip it.
    private mutating func rendition(_ attributes: HLSAttributeList) throws(HLSPlaylistError) {
        guard let kind = HLSRendition.Kind(rawValue: try attributes.required("TYPE")) else { return }
        guard renditions.count < HLSPlaylist.maximumVariants else { throw .tooManyVariants(limit: HLSPlaylist.maximumVariants) }
        let uri = attributes.string("URI")
        // CLOSED-CAPTIONS are in the video's own stream: a URI there means nothing.
        let url = try uri.flatMap { text throws(HLSPlaylistError) in kind == .closedCaptions ? nil : try resolve(text, line: attributes.line) }
        let channels = attributes.string("CHANNELS").flatMap { Int($0.prefix { $0.isNumber }) }
        renditions.append(HLSRendition(kind: kind, groupID: try attributes.required("GROUP-ID"), name: try attributes.required("NAME"),
                                       language: attributes.string("LANGUAGE"), isDefault: attributes.string("DEFAULT") == "YES",
                                       autoselect: attributes.string("AUTOSELECT") == "YES", url: url, channels: channels,
                                       isForced: attributes.string("FORCED") == "YES"))
    }

    /// The key a segment (or MAP) uses: the `identity` one, the only kind vodapp can fetch, else
    /// the first other format, so that the playlist still reads as encrypted.
    private var currentKey: KeyTag? {
        keys.first { $0.keyFormat == "identity" } ?? keys.first
    }

    private mutating func key(_ attributes: HLSAttributeList) throws(HLSPlaylistError) {
        let methodText = try attributes.required("METHOD")
        if methodText == "NONE" {
            // NONE has no KEYFORMAT of its own: it ends encryption, whatever the format.
            keys.removeAll()
            return
        }
        guard let method = HLSKey.Method(rawValue: methodText) else {
            throw .badValue(tag: attributes.tag, line: attributes.line,
                            detail: "METHOD \"\(HLSPlaylistError.excerpt(methodText))\" is not NONE, AES-128, SAMPLE-AES or SAMPLE-AES-CTR")
        }
        let keyFormat = attributes.string("KEYFORMAT") ?? "identity"
        let uri = try attributes.required("URI")
        var keyURL: MediaURL?
        if method == .aes128 && keyFormat == "identity" {
            keyURL = try resolve(uri, line: attributes.line)
        } else {
            // A DRM system's URI (skd://, data:) is not fetched by vodapp: no error for it.
            keyURL = try? resolve(uri, line: attributes.line)
        }
        let tag = KeyTag(method: method, uri: keyURL?.absoluteString ?? uri, url: keyURL, iv: try attributes.iv("IV"), keyFormat: keyFormat)
        if let index = keys.firstIndex(where: { $0.keyFormat == keyFormat }) {
            keys[index] = tag
        } else {
            keys.append(tag)
        }
    }

    private mutating func uri(_ text: Substring, line: Int) throws(HLSPlaylistError) {
        if let streamInf = pendingStreamInf {
            pendingStreamInf = nil
            guard variants.count < HLSPlaylist.maximumVariants else { throw .tooManyVariants(limit: HLSPlaylist.maximumVariants) }
            let attributes = streamInf.attributes
            // RFC 8216 requires BANDWIDTH, but players play a master without it (a broadcaster's
            // feeds): it counts as 0, unknown, and such variants are ranked by RESOLUTION
            // (`HLSVariantChoice`).
            let bandwidth = try attributes.bitRate("BANDWIDTH") ?? 0
            let codecs = attributes.string("CODECS").map {
                $0.split(separator: ",").map { Self.trimmed($0) }.filter { !$0.isEmpty }.map(String.init)
            } ?? []
            variants.append(HLSVariant(url: try resolve(String(text), line: line), bandwidth: bandwidth,
                                       averageBandwidth: try attributes.bitRate("AVERAGE-BANDWIDTH"),
                                       resolution: try attributes.resolution("RESOLUTION"), codecs: codecs,
                                       audioGroup: attributes.string("AUDIO"), subtitleGroup: attributes.string("SUBTITLES")))
            return
        }
        // A line that is neither a tag nor a segment's URI (junk a server left) is skipped, as
        // players skip it.
        guard let extinf = pendingExtinf else { return }
        pendingExtinf = nil
        guard segments.count < maximumSegments else { throw .tooManySegments(limit: maximumSegments) }
        let segmentURL = try resolve(String(text), line: line)
        let (sequenceNumber, overflow) = mediaSequence.addingReportingOverflow(UInt64(segments.count) + gaps)
        guard !overflow else {
            throw .badValue(tag: "EXT-X-MEDIA-SEQUENCE", line: mediaSequenceLine, detail: "is so large that segment numbers overflow")
        }
        var range: HLSByteRange?
        if let pending = pendingByteRange {
            pendingByteRange = nil
            guard let offset = pending.offset ?? rangeEnds[segmentURL.absoluteString] else {
                throw .byteRangeWithoutStart(line: pending.line)
            }
            let checked = try Self.checkedRange(offset: offset, length: pending.length, tag: "EXT-X-BYTERANGE", line: pending.line)
            rangeEnds[segmentURL.absoluteString] = checked.end
            range = checked
        }
        if pendingGap {
            // Listed but not there: not requested (it would fail the item), and the timeline
            // goes on after it.
            pendingGap = false
            gaps += 1
            return
        }
        if let tag = map, tag.built == nil {
            map?.built = HLSMap(url: tag.url, byteRange: tag.byteRange, key: tag.key?.key(sequenceNumber: sequenceNumber))
        }
        segments.append(HLSSegment(url: segmentURL, duration: extinf.duration, title: extinf.title, sequenceNumber: sequenceNumber,
                                   byteRange: range, key: currentKey?.key(sequenceNumber: sequenceNumber), map: map?.built,
                                   followsDiscontinuity: pendingDiscontinuity))
        pendingDiscontinuity = false
    }

    /// `<n>[@<o>]`.
    private static func byteRange(_ text: Substring, tag: String, line: Int) throws(HLSPlaylistError) -> (Int64, Int64?) {
        let parts = trimmed(text).split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
              let length = HLSAttributeList.decimalInteger(parts[0]).flatMap({ Int64(exactly: $0) }), length > 0 else {
            throw .badValue(tag: tag, line: line, detail: "range \"\(HLSPlaylistError.excerpt(text))\" is not LENGTH[@OFFSET]")
        }
        guard parts.count == 2 else { return (length, nil) }
        guard let offset = HLSAttributeList.decimalInteger(parts[1]).flatMap({ Int64(exactly: $0) }) else {
            throw .badValue(tag: tag, line: line, detail: "range \"\(HLSPlaylistError.excerpt(text))\" is not LENGTH[@OFFSET]")
        }
        return (length, offset)
    }

    private static func checkedRange(offset: Int64, length: Int64, tag: String, line: Int) throws(HLSPlaylistError) -> HLSByteRange {
        guard !offset.addingReportingOverflow(length).overflow else {
            throw .badValue(tag: tag, line: line, detail: "range \(length)@\(offset) ends past the largest file size")
        }
        return HLSByteRange(offset: offset, length: length)
    }

    /// Resolved by libcurl's parser, as every URL vodapp fetches is (`MediaURL.resolving`).
    private func resolve(_ uri: String, line: Int) throws(HLSPlaylistError) -> MediaURL {
        do throws(MediaURL.Rejection) {
            return try url.resolving(uri)
        } catch {
            throw .unresolvableURI(uri: HLSPlaylistError.excerpt(uri), line: line, reason: error.description)
        }
    }
}
