import Testing
import VODAppModel
@testable import VODAppPayload

/// `vodapp get URL…` as a payload: keys derived from URLs, stable and within the key rule;
/// titles given or taken from the file name; a bad URL an invalid item that names why.
@Suite struct PlainURLsTests {
    @Test func theKeyIsTheFileNameAndAHashOfTheResource() throws {
        let url = try MediaURL("https://example.com/media/Big%20Buck%20Bunny.mp4?token=1")
        let key = PlainURLs.key(for: url)
        #expect(key.hasPrefix("Big-Buck-Bunny-"), "\(key)")
        #expect(key.count == "Big-Buck-Bunny-".count + 8)
        #expect(ItemKey.isValid(key))
        // The same file under another token is the same item; another path or host is not.
        #expect(PlainURLs.key(for: try MediaURL("https://example.com/media/Big%20Buck%20Bunny.mp4?token=2")) == key)
        #expect(PlainURLs.key(for: try MediaURL("https://example.com/other/Big%20Buck%20Bunny.mp4")) != key)
        #expect(PlainURLs.key(for: try MediaURL("https://example.org/media/Big%20Buck%20Bunny.mp4")) != key)
    }

    @Test func everyURLGivesAKeyThatPassesTheRule() throws {
        for text in ["https://example.com/", "https://example.com/%2F..%2F.mp4", "https://example.com/ünïcødé.mp4",
                     "https://example.com/" + String(repeating: "a", count: 300) + ".mp4", "https://example.com/.hidden",
                     "https://example.com/a/b/index.m3u8"] {
            let key = PlainURLs.key(for: try MediaURL(text))
            #expect(ItemKey.isValid(key), "\(text) gives \(key)")
            #expect(!key.contains("--") && !key.hasPrefix("-"), "\(key)")
        }
        #expect(PlainURLs.key(for: try MediaURL("https://example.com/")).hasPrefix("url-"))
    }

    @Test func titlesGoInOrderAndTheRestAreFileNames() {
        let payload = PlainURLs.payload(urls: ["https://example.com/a/Tulips%20in%20May.mp4", "https://example.com/b.mp4", "https://example.com/"],
                                        titles: ["My tulips"])
        #expect(payload.items.map(\.title) == ["My tulips", "b", "example.com"])
        #expect(payload.items.filter(\.isValid).count == 3)
    }

    @Test func aURLThatIsNotOneIsAnInvalidItemThatSaysWhy() {
        let payload = PlainURLs.payload(urls: ["ftp://example.com/a.mp4", "https://example.com/b.mp4"])
        guard case .invalid(let reason, _, let url) = payload.items[0].validity else {
            Issue.record("\(payload.items[0])")
            return
        }
        #expect(reason == "url scheme \"ftp\" is not http or https")
        #expect(url == "ftp://example.com/a.mp4")
        #expect(payload.items[1].isValid)
    }
}
