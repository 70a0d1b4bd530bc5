import Testing
import VODAppModel

/// The vocabulary every layer shares: what a URL is once libcurl has parsed it, and which keys may
/// name an item.
@Suite struct MediaURLTests {
    @Test(arguments: [
        ("http://a.example/v.mp4", "http://a.example/v.mp4", "http://a.example:80", "a.example:80"),
        // The host is fetched as written; what scopes headers and slots (origin, endpoint) is lowercase.
        ("  https://A.Example:8443/v.mp4\n", "https://A.Example:8443/v.mp4", "https://a.example:8443", "a.example:8443"),
        // Pasted as people paste them: a space and a non-ASCII letter are encoded, a Unicode host
        // is fetched by its punycode.
        ("http://bücher.example/my clip.mp4", "http://xn--bcher-kva.example/my%20clip.mp4", "http://xn--bcher-kva.example:80",
         "xn--bcher-kva.example:80"),
        ("http://[::1]:9/v.mp4", "http://[::1]:9/v.mp4", "http://[::1]:9", "[::1]:9"),
    ])
    func aURLIsWhatLibcurlWillFetch(_ text: String, absolute: String, origin: String, endpoint: String) throws {
        let url = try MediaURL(text)
        #expect(url.absoluteString == absolute)
        #expect(url.origin == origin)
        #expect(url.endpoint == endpoint)
    }

    @Test(arguments: [
        ("ftp://a.example/v.mp4", MediaURL.Rejection.unsupportedScheme("ftp")),
        ("file:///etc/passwd", .unsupportedScheme("file")),
        ("/v.mp4", .malformed("is not an absolute URL: it must start with http:// or https://")),
    ])
    func whatIsNotHttpOrHttpsIsRefusedByName(_ text: String, rejection: MediaURL.Rejection) {
        #expect(throws: rejection) { try MediaURL(text) }
    }

    @Test func aPortOfZeroIsRefused() {
        #expect(throws: MediaURL.Rejection.malformed("has a port that is not a number from 1 to 65535")) {
            try MediaURL("http://a.example:0/v.mp4")
        }
    }

    @Test func aPasswordIsNeverShown() throws {
        let url = try MediaURL("https://user:secret@a.example/v.mp4")
        #expect(url.hasPassword)
        #expect(url.redacted == "https://user:***@a.example/v.mp4")
        #expect(!url.redacted.contains("secret"))
        #expect(MediaURL.redacting("https://user:secret@a example/v.mp4").contains("***"))
    }

    @Test func sameOriginIsSchemeHostAndPort() throws {
        let item = try MediaURL("https://a.example/v.mp4")
        #expect(try MediaURL("https://A.EXAMPLE:443/other.mp4").isSameOrigin(as: item))
        #expect(try !MediaURL("http://a.example/v.mp4").isSameOrigin(as: item))
        #expect(try !MediaURL("https://a.example:444/v.mp4").isSameOrigin(as: item))
        #expect(try !MediaURL("https://a.example.evil/v.mp4").isSameOrigin(as: item))
    }
}

@Suite struct ItemKeyTests {
    @Test(arguments: ["a", "Episode_01-final", String(repeating: "k", count: 128)])
    func aKeyOfLettersDigitsUnderscoresAndHyphensNamesAnItem(_ key: String) {
        #expect(ItemKey.isValid(key))
    }

    @Test(arguments: ["", String(repeating: "k", count: 129), "../etc", "a/b", "a b", ".hidden", "é", "a\u{0}b", "a.mp4"])
    func anyOtherKeyNeverReachesTheFileSystem(_ key: String) {
        #expect(!ItemKey.isValid(key))
    }
}
