import VODAppModel

/// How many segments one HLS item, and all the HLS items of one delivery together, may fetch.
///
/// A payload names its own playlists, and a 1 MiB playlist lists 20,000 segments: without a
/// bound, 16 of them made one delivery plan 320,000 requests, run past its budget and hold a
/// gigabyte. Each segment costs a request, a file and its place in memory until the item ends,
/// so the count is what is bounded, whatever the bytes. An item whose playlist lists more than it
/// may fetch fails at once, saying which limit it passed; the delivery's other items go on.
/// A pure value: `StreamDownloads` holds one per delivery.
package struct HLSSegmentLimits: Sendable, Equatable {
    /// 20,000: more than 5 hours of 1-second segments, 33 hours of Apple's recommended 6.
    package static let defaultPerItem = HLSPlaylist.maximumSegments
    /// Two such items: a delivery holds what they need (a few MiB) and no more.
    package static let defaultPerDelivery = 40_000

    package let perItem: Int
    package let perDelivery: Int
    /// Segments the delivery's items have taken so far.
    package private(set) var taken = 0

    package init(perItem: Int = Self.defaultPerItem, perDelivery: Int = Self.defaultPerDelivery) {
        self.perItem = max(0, perItem)
        self.perDelivery = max(0, perDelivery)
    }

    /// The most segments the next playlist may list: the item's limit, or what the delivery has
    /// left when that is less.
    package var available: Int { min(perItem, max(0, perDelivery - taken)) }

    /// Takes `count` segments for an item, or returns false, taking none, when they are more than
    /// `available`.
    package mutating func take(_ count: Int) -> Bool {
        guard count >= 0, count <= available else { return false }
        taken += count
        return true
    }

    /// Why a playlist of `segments` segments is refused, and whether for good (the item's own
    /// limit does not change; the delivery's share does); nil when it fits.
    package func refusal(segments: Int) -> (reason: String, isFinal: Bool)? {
        if segments > perItem {
            return ("the HLS playlist lists \(segments) segments, more than the \(perItem) vodapp fetches for one item", true)
        }
        guard segments > available else { return nil }
        return ("the HLS playlist lists \(segments) segments, more than the \(available) left of the \(perDelivery) one delivery "
                + "fetches (its other HLS items take the rest); it may fit in a delivery of its own", false)
    }

    /// The `#EXTINF` tags of a playlist's text, one per segment: counted before it is parsed, in
    /// one pass over its bytes, so that a playlist refused for its size costs no parse (tens of
    /// milliseconds for 20,000 segments, on the thread every transfer shares).
    package static func segmentTags(in playlist: [UInt8]) -> Int {
        let tag = Array("#EXTINF".utf8)
        var count = 0
        var atLineStart = true
        var index = 0
        while index < playlist.count {
            let byte = playlist[index]
            if byte == UInt8(ascii: "\n") {
                atLineStart = true
            } else if atLineStart, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                // The parser trims a line before reading its tag.
            } else {
                if atLineStart, byte == tag[0], playlist.count - index >= tag.count,
                   playlist[index..<index + tag.count].elementsEqual(tag) {
                    count += 1
                }
                atLineStart = false
            }
            index += 1
        }
        return count
    }
}
