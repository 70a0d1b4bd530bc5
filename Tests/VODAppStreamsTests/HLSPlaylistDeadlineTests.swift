import Foundation
import Testing
import VODAppHLS
import VODAppModel
import VODAppStreams

/// A long playlist is read on the thread every transfer shares: past the run's deadline it is
/// given up, so that reading it cannot carry the run past its budget.
@Suite struct HLSPlaylistDeadlineTests {
    private func playlist(segments: Int) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<segments { text += "#EXTINF:1.0,\nsegment\(index).ts\n" }
        return Array((text + "#EXT-X-ENDLIST\n").utf8)
    }

    @Test func aPlaylistStillBeingReadAtTheDeadlineIsGivenUp() throws {
        let url = try MediaURL("http://media.test/vod/index.m3u8")
        let bytes = playlist(segments: 2_000)
        #expect(throws: HLSPlaylistError.outOfTime) {
            try HLSPlaylist.parse(bytes, url: url, deadline: .now - .seconds(1))
        }
        let read = try HLSPlaylist.parse(bytes, url: url, deadline: .now + .seconds(3600))
        #expect(read.media?.segments.count == 2_000)
        #expect(try HLSPlaylist.parse(bytes, url: url).media?.segments.count == 2_000)
    }

    /// A short playlist is read whole whatever the clock: the deadline is looked at every few
    /// hundred lines, not before the first.
    @Test func aShortPlaylistIsReadWhole() throws {
        let url = try MediaURL("http://media.test/vod/index.m3u8")
        #expect(try HLSPlaylist.parse(playlist(segments: 3), url: url, deadline: .now - .seconds(1)).media?.segments.count == 3)
    }
}
