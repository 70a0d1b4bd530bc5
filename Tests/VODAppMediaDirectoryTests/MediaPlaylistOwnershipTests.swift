import Foundation
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

    /// What an earlier vodapp wrote, without the marker, is the user's now, as any list: three
    /// trials had a user's list of yt-dlp's `Title [id].ext` names taken for it, by its shape, by
    /// records of its keys, then by files a push of its keys made vodapp place. Its shape only
    /// earns the warning a hint on handing it back.
    @Test(arguments: ["#EXTM3U\n#EXTINF:-1,A\nA [a].mp4\n", "#EXTM3U\n#EXTINF:-1,A — B\n./#1 [k_1].mkv\n#EXTINF:-1,K\nK [key-2].mp4\n"])
    func anEarlierVodappsPlaylistIsTheUsersNow(_ text: String) {
        #expect(!MediaPlaylist.isVodapps(text))
        #expect(MediaPlaylist.looksLikeAnEarlierVodapps(text))
    }

    /// A person's or another program's playlist: anything but that shape.
    @Test(arguments: [
        "", "#EXTM3U\n", "#EXTM3U\n#EXTINF:-1,My mix\n/home/me/song.mp3\n",
        // A user's list of their own files, whose names pass the key rule (the new-user trial).
        "#EXTM3U\n#EXTINF:-1,Holiday in Rome\nholiday.mp4\n#EXTINF:-1,Birthday\nbirthday-2023.mp4\n", "#EXTM3U\n#EXTINF:123,A\nA [a].mp4\n",
        "#EXTM3U\n#EXTINF:-1,A\nA [a].mp4\n#EXTINF:-1,Mine\nholiday video.mp4\n", "A [a].mp4\n",
        "#EXTM3U\n#EXTINF:-1,A\n", "#EXTM3U\n#PLAYLIST:Mine\n#EXTINF:-1,A\nA [a].mp4\n", "#EXTM3U\n#EXTINF:-1,A\n../A [a].mp4\n",
    ])
    func anythingElseIsTheUsers(_ text: String) {
        #expect(!MediaPlaylist.isVodapps(text))
        #expect(!MediaPlaylist.looksLikeAnEarlierVodapps(text))
    }

    /// The name vodapp's playlist takes in a folder: a regular file it cannot prove it wrote,
    /// whether by its text or because it cannot read it as text (a player's Latin-1 list, the
    /// attacker trial's), is the user's, so vodapp writes `vodapp.m3u8` beside it.
    @Test func aPlaylistVodappCannotReadAsItsOwnIsTheUsers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("playlist-name-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/playlist.m3u8"
        #expect(MediaPlaylist.name(in: folder) == "playlist.m3u8")
        try Data("#EXTM3U\n#EXTINF:-1,Caf\u{e9}\ncaf\u{e9}.mp3\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(MediaPlaylist.name(in: folder) == "vodapp.m3u8")
        // The same list in Latin-1: é is one byte, 0xE9, which is not UTF-8.
        try Data("#EXTM3U\n#EXTINF:-1,Caf\u{e9}\ncaf\u{e9}.mp3\n".data(using: .isoLatin1)!).write(to: URL(fileURLWithPath: path))
        #expect(String(data: try Data(contentsOf: URL(fileURLWithPath: path)), encoding: .utf8) == nil)
        #expect(MediaPlaylist.name(in: folder) == "vodapp.m3u8")
        try Data(MediaPlaylist(entries: []).text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(MediaPlaylist.name(in: folder) == "playlist.m3u8")
    }

    /// A symbolic link (to a list the user keeps elsewhere), a FIFO or a hard link at the name
    /// is the user's: in a DIR no other user can change, nobody else can have put it there. It
    /// failed before: a link was taken for planted and replaced (seventh attacker trial, F3b).
    @Test func aLinkAFIFOOrAHardLinkAtTheNameIsTheUsers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("playlist-link-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/playlist.m3u8"
        // The link's target carries vodapp's marker: still not vodapp's to replace.
        let kept = folder + "/kept.m3u8"
        try Data(MediaPlaylist(entries: []).text.utf8).write(to: URL(fileURLWithPath: kept))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: kept)
        #expect(MediaPlaylist.name(in: folder) == "vodapp.m3u8")
        unlink(path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder + "/nothing")
        #expect(MediaPlaylist.name(in: folder) == "vodapp.m3u8")
        unlink(path)
        #expect(mkfifo(path, 0o644) == 0)
        #expect(MediaPlaylist.name(in: folder) == "vodapp.m3u8")
        unlink(path)
        #expect(link(kept, path) == 0)
        #expect(MediaPlaylist.name(in: folder) == "vodapp.m3u8")
        unlink(kept)
        // The same file with one link left is vodapp's again.
        #expect(MediaPlaylist.name(in: folder) == "playlist.m3u8")
    }
}
