import Testing
import VODAppMediaDirectory

/// Which `playlist.m3u8` is vodapp's to rewrite: pure text in, yes or no out.
@Suite struct MediaPlaylistOwnershipTests {
    @Test func whatVodappWritesCarriesTheMarkerAndIsItsOwn() {
        let text = MediaPlaylist(entries: [MediaPlaylist.entry(title: "A", subtitle: nil, path: "/media/A [a].mp4")]).text
        #expect(text.split(separator: "\n").prefix(2) == ["#EXTM3U", Substring(MediaPlaylist.marker)])
        #expect(MediaPlaylist.isVodapps(text))
        #expect(MediaPlaylist.isVodapps(MediaPlaylist(entries: []).text))
    }

    /// What an earlier vodapp wrote, without the marker: its exact shape, entries naming items' files.
    @Test(arguments: ["#EXTM3U\n", "#EXTM3U\n#EXTINF:-1,A\nA [a].mp4\n", "#EXTM3U\n#EXTINF:-1,A — B\n./#1 [k_1].mkv\n#EXTINF:-1,K\nkey-2.mp4\n"])
    func anEarlierVodappsPlaylistIsItsOwn(_ text: String) {
        #expect(MediaPlaylist.isVodapps(text))
    }

    /// A person's or another program's playlist: anything but that shape.
    @Test(arguments: [
        "", "#EXTM3U\n#EXTINF:-1,My mix\n/home/me/song.mp3\n", "#EXTM3U\n#EXTINF:123,A\nA [a].mp4\n",
        "#EXTM3U\n#EXTINF:-1,A\nA [a].mp4\n#EXTINF:-1,Mine\nholiday video.mp4\n", "A [a].mp4\n",
        "#EXTM3U\n#EXTINF:-1,A\n", "#EXTM3U\n#PLAYLIST:Mine\n#EXTINF:-1,A\nA [a].mp4\n", "#EXTM3U\n#EXTINF:-1,A\n../A [a].mp4\n",
    ])
    func anythingElseIsTheUsers(_ text: String) {
        #expect(!MediaPlaylist.isVodapps(text))
    }
}
