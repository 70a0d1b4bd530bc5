import Testing
import VODAppMediaDirectory
import VODAppModel

@Suite struct MediaFileNameTests {
    private func name(_ title: String, key: String = "k1", ext: String? = "mp4", style: MediaFileName.Style = .title) -> String {
        MediaFileName(key: key, title: title, fileExtension: ext, style: style).value
    }

    @Test(arguments: [
        ("Tulips", "Tulips [k1].mp4"),
        ("../../etc/passwd", "\u{29F8}..\u{29F8}etc\u{29F8}passwd [k1].mp4"),
        ("..", "[k1].mp4"),
        (".hidden", "hidden [k1].mp4"),
        ("-rf *", "rf \u{FF0A} [k1].mp4"),
        (#"a\b:c*d?e"f<g>h|i"#, "a\u{29F9}b\u{FF1A}c\u{FF0A}d\u{FF1F}e\u{FF02}f\u{FF1C}g\u{FF1E}h\u{FF5C}i [k1].mp4"),
        ("tab\there\r\nnext\u{0}line\u{1B}[2J", "tab here next line [2J [k1].mp4"),
        ("evil\u{202E}4pm.exe", "evil 4pm.exe [k1].mp4"),
        ("End... ", "End [k1].mp4"),
        ("   spaced    out   ", "spaced out [k1].mp4"),
        ("", "[k1].mp4"),
        ("Café 🎬 ドラマ", "Café 🎬 ドラマ [k1].mp4"),
    ])
    func titlesBecomeSafeNames(title: String, expected: String) {
        #expect(name(title) == expected)
    }

    @Test func longTitlesAreCutToTwoHundredBytesBetweenCharacters() {
        let accented = name(String(repeating: "é", count: 300))
        #expect(accented == String(repeating: "é", count: 100) + " [k1].mp4")
        // A family emoji is one character of 18 bytes: eleven fit in 200 bytes, never half of one.
        let family = "👨‍👩‍👧"
        let cut = name(String(repeating: family, count: 70))
        #expect(cut == String(repeating: family, count: 11) + " [k1].mp4")
    }

    @Test func theWholeNameFitsInTheFileSystemsLimitWithTheLongestKey() {
        let key = String(repeating: "k", count: 128)
        let long = name(String(repeating: "x", count: 400), key: key, ext: "mpeg")
        #expect(long.utf8.count == 255)
        #expect(long.hasSuffix(" [\(key)].mpeg"))
    }

    @Test func keyStyleAndThePlaylistsOwnName() {
        #expect(name("Tulips", style: .key) == "k1.mp4")
        #expect(name("Tulips", ext: nil, style: .key) == "k1")
        #expect(name("P", key: "playlist", ext: "m3u8", style: .key) == "P [playlist].m3u8")
    }

    @Test(arguments: [
        ("Tulips [k1].mp4", "k1"), ("[k1].mp4", "k1"), ("Foo [abc] [k1].mp4", "k1"), ("Tulips [k1]", "k1"),
        ("k1.mp4", "k1"), ("k1", "k1"), ("k1.WEBM", "k1"),
    ])
    func namesLeadBackToTheirKey(name: String, key: String) {
        #expect(MediaFileName.key(of: name) == key)
    }

    @Test func namesVodappCouldNotHaveMadeLeadNowhere() {
        #expect(MediaFileName.key(of: "notes.txt") == nil)
        #expect(MediaFileName.key(of: "notes.txt", accepting: "txt") == "notes")
        #expect(MediaFileName.key(of: "x[k1].mp4") == nil)
        #expect(MediaFileName.key(of: "Tulips [../x].mp4") == nil)
        #expect(MediaFileName.key(of: "my holiday.mp4") == nil)
    }

    @Test func theExtensionComesFromTheURLElseTheContentType() throws {
        func ext(_ url: String, _ type: String?) throws -> String? {
            MediaFileName.fileExtension(url: try MediaURL(url), contentType: type)
        }
        #expect(try ext("http://h/a.mp4", "application/octet-stream") == "mp4")
        #expect(try ext("http://h/a", "video/webm") == "webm")
        #expect(try ext("http://h/watch.php?id=3", "video/mp4; charset=binary") == "mp4")
        // Never an extension a file manager or a browser would run or render.
        #expect(try ext("http://h/watch.php", "text/html") == nil)
        #expect(try ext("http://h/run.sh", "application/octet-stream") == nil)
        #expect(try ext("http://h/app.desktop", nil) == nil)
        #expect(try ext("http://h/page.html", "video/mp4") == "mp4")
        #expect(try ext("http://h/a", "VIDEO/X-MATROSKA") == "mkv")
        #expect(try ext("http://h/a", nil) == nil)
    }

    /// A subtitle's name is the file's with the language before `.vtt`, as mpv and VLC look for
    /// it; only such a name of the item's own is taken for one of its subtitles.
    @Test func subtitlesAreNamedBesideTheirFileAndKnownByThatName() {
        #expect(MediaFileName.subtitle(beside: "A film [k1].mp4", language: "en") == "A film [k1].en.vtt")
        #expect(MediaFileName.subtitle(beside: "k1.m4a", language: "pt-BR") == "k1.pt-BR.vtt")
        #expect(MediaFileName.subtitle(beside: "[k1]", language: "und") == "[k1].und.vtt")
        #expect(MediaFileName.isSubtitleName("A film [k1].en.vtt", of: "k1"))
        #expect(MediaFileName.isSubtitleName("k1.pt-BR.vtt", of: "k1"))
        for other in ["A film [k1].en.vtt.vtt", "A film [k2].en.vtt", "A film [k1].mp4", "notes.en.vtt", "k1.vtt", ".k1.en.vtt",
                      "A film [k1].e n.vtt", "A film [k1]..vtt", "../k1.en.vtt", "k1.en.srt"] {
            #expect(!MediaFileName.isSubtitleName(other, of: "k1"), "\(other)")
        }
    }
}
