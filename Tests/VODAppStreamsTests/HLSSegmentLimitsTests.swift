import Foundation
import Testing
import UnitTestSupport
import VODAppHLS
import VODAppModel
import VODAppStreams
import VODAppTransferPolicy

/// How many segments an HLS item and a delivery's HLS items may fetch (`HLSSegmentLimits`, a pure
/// value), and how `StreamDownloads` asks for them: a few at a time, whatever the playlist lists.
@Suite struct HLSSegmentLimitsTests {
    @Test func anItemMayTakeUpToItsOwnLimitAndTheDeliverysShareIsSpentAcrossItems() {
        var limits = HLSSegmentLimits(perItem: 100, perDelivery: 250)
        #expect(limits.available == 100)
        let taken = [limits.take(100), limits.take(100)]
        #expect(taken == [true, true])
        // 50 left of the delivery's 250: less than an item's own 100.
        #expect(limits.available == 50)
        let tooMany = limits.take(51)
        #expect(!tooMany && limits.taken == 200)
        let rest = [limits.take(50), limits.take(1), limits.take(0)]
        #expect(rest == [true, false, true])
        #expect(limits.available == 0)
    }

    @Test func theDefaultsAreTwentyThousandAnItemAndFortyThousandADelivery() {
        let limits = HLSSegmentLimits()
        #expect(limits.perItem == 20_000 && limits.perDelivery == 40_000)
        #expect(HLSPlaylist.maximumSegments == 20_000)
    }

    @Test func theReasonSaysWhichLimitAndOnlyTheItemsOwnIsFinal() {
        var limits = HLSSegmentLimits(perItem: 100, perDelivery: 250)
        _ = limits.take(100)
        _ = limits.take(100)
        #expect(limits.refusal(segments: 50) == nil)
        let own = limits.refusal(segments: 101)
        #expect(own?.reason == "the HLS playlist lists 101 segments, more than the 100 vodapp fetches for one item")
        #expect(own?.isFinal == true)
        let shared = limits.refusal(segments: 51)
        #expect(shared?.reason == "the HLS playlist lists 51 segments, more than the 50 left of the 250 one delivery fetches "
                + "(its other HLS items take the rest); it may fit in a delivery of its own")
        #expect(shared?.isFinal == false)
    }

    @Test func segmentsAreCountedByTheirEXTINFTagsAtTheStartOfALine() {
        let text = "#EXTM3U\n#EXTINF:1,\na.ts\n  #EXTINF:2,\r\nb.ts\nc.ts#EXTINF:3\n#EXT-X-ENDLIST\n#EXTINF"
        #expect(HLSSegmentLimits.segmentTags(in: Array(text.utf8)) == 3)
        #expect(HLSSegmentLimits.segmentTags(in: []) == 0)
        #expect(HLSSegmentLimits.segmentTags(in: Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n".utf8)) == 0)
    }

    // MARK: StreamDownloads

    private static let base = "http://127.0.0.1:9/"

    private static func playlist(segments: Int) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for number in 0..<segments { text += "#EXTINF:1,\ns\(number).ts\n" }
        return Array((text + "#EXT-X-ENDLIST\n").utf8)
    }

    private static func answer(_ key: String, segments: Int) throws -> TransferOutcome {
        TransferOutcome(id: key, result: .captured(playlist(segments: segments)), httpStatus: 200,
                        finalURL: try MediaURL(base + "\(key).m3u8"))
    }

    private func downloads(in dir: ScratchDirectory, keys: [String], limits: HLSSegmentLimits = HLSSegmentLimits()) throws -> StreamDownloads {
        let urls = try Dictionary(uniqueKeysWithValues: keys.map { ($0, try MediaURL(Self.base + "\($0).m3u8")) })
        return StreamDownloads(segmentFolder: { dir.child("\($0).hls") }, maximumSize: 1 << 30, itemURLs: urls, limits: limits)
    }

    /// A playlist of 20,000 segments puts 16 requests in the run, not 20,000; each segment that
    /// arrives brings the next, in play order, until the last.
    @Test func anItemAsksForItsSegmentsAFewAtATimeInPlayOrder() throws {
        let dir = try ScratchDirectory()
        let hls = try downloads(in: dir, keys: ["big"])
        var queued = hls.next(after: try Self.answer("big", segments: 20_000)).add
        #expect(queued.map(\.id) == (1...16).map { "big/segment\($0)" })
        var asked = queued.count
        for number in 1...40 {
            let request = queued.removeFirst()
            #expect(request.id == "big/segment\(number)")
            try Data([0x47]).write(to: URL(fileURLWithPath: request.temporaryPath))
            let next = hls.next(after: TransferOutcome(id: request.id, result: .completed(bytes: 1), httpStatus: 200))
            #expect(next.cancel.isEmpty)
            queued += next.add
            asked += next.add.count
        }
        #expect(asked == 56 && queued.count == 16)
        #expect(queued.first?.id == "big/segment41" && queued.last?.id == "big/segment56")
        #expect(hls.isUnderway("big"))
    }

    @Test func playlistsPastTheDeliverysShareFailWithTheReasonAndTheOthersGoOn() throws {
        let dir = try ScratchDirectory()
        let hls = try downloads(in: dir, keys: ["a", "b", "c", "d"], limits: HLSSegmentLimits(perItem: 300, perDelivery: 500))
        #expect(hls.next(after: try Self.answer("a", segments: 300)).add.count == 16)
        #expect(hls.next(after: try Self.answer("b", segments: 301)).add.isEmpty)
        #expect(hls.next(after: try Self.answer("c", segments: 201)).add.isEmpty)
        #expect(hls.next(after: try Self.answer("d", segments: 200)).add.count == 16)

        let own = try #require(hls.finish("b", into: dir.child("b.part"), because: "the budget ran out"))
        #expect(own.result == .failed(reason: "the HLS playlist lists 301 segments, more than the 300 vodapp fetches for one item"))
        #expect(own.isFinal)
        let shared = try #require(hls.finish("c", into: dir.child("c.part"), because: "the budget ran out"))
        #expect(shared.result == .failed(reason: "the HLS playlist lists 201 segments, more than the 200 left of the 500 one delivery fetches "
                                         + "(its other HLS items take the rest); it may fit in a delivery of its own"))
        #expect(!shared.isFinal)
        let cut = try #require(hls.finish("a", into: dir.child("a.part"), because: "the budget ran out"))
        #expect(cut.result == .timedOut(reason: "the budget ran out with 0 of 300 HLS segments"))
    }
}
