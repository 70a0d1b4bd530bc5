import Testing
@testable import VODAppDelivery
import VODAppMediaDirectory
import VODAppStore

/// `--playlist latest`'s entries, as values: the latest push in its order; with `--sync`, the
/// set before it still follows until the new one is complete.
@Suite struct LatestPlaylistTests {
    private func pushed(_ keys: String...) -> [PushedItem] {
        keys.enumerated().map { PushedItem(position: $0, key: $1, title: "New \($1)", subtitle: nil, vouched: true) }
    }

    private func entries(_ keys: String...) -> [MediaPlaylist.Entry] {
        keys.map { MediaPlaylist.entry(title: "Old \($0)", subtitle: nil, path: "/d/T [\($0)].mp4") }
    }

    @Test func theLatestPushInItsOrderTitledAsItTitles() {
        let playlist = Delivery.latest(pushed("b", "a"), entries: entries("a", "b", "old"))
        #expect(playlist.entries.map(\.name) == ["T [b].mp4", "T [a].mp4"])
        #expect(playlist.entries.first?.title == "New b")
    }

    @Test func withSyncTheSetBeforeFollowsUntilTheNewOneIsComplete() {
        let incomplete = Delivery.latest(pushed("b", "c"), entries: entries("b", "old1", "old2", "old1"), keepingTheRestUntilComplete: true)
        #expect(incomplete.entries.map(\.name) == ["T [b].mp4", "T [old1].mp4", "T [old2].mp4"])
        let complete = Delivery.latest(pushed("b", "c"), entries: entries("c", "b", "old1"), keepingTheRestUntilComplete: true)
        #expect(complete.entries.map(\.name) == ["T [b].mp4", "T [c].mp4"])
        // Without --sync, only what arrived of the latest push.
        #expect(Delivery.latest(pushed("b", "c"), entries: entries("b", "old1")).entries.map(\.name) == ["T [b].mp4"])
    }
}
