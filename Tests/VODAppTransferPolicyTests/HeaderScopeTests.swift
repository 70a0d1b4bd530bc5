import Testing
import VODAppModel
@testable import VODAppTransferPolicy

/// Where `--header` may go, as values: the user's words parsed once, each request's URL
/// compared with them. The scheme, the host and the port all count.
@Suite struct HeaderScopeTests {
    private func url(_ text: String) throws -> MediaURL { try MediaURL(text) }

    @Test(arguments: [
        ("example.com", "https://example.com:443"),
        ("https://Example.COM", "https://example.com:443"),
        ("http://example.com", "http://example.com:80"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        (".example.com", "https://.example.com:443"),
        ("https://.example.com:8443", "https://.example.com:8443"),
        ("bücher.example", "https://xn--bcher-kva.example:443"),
    ])
    func theUsersWordsAreParsedOnce(text: String, shown: String) {
        #expect(HeaderScope(text)?.description == shown)
    }

    @Test(arguments: ["", ".", "ftp://example.com", "example.com/path", "example.com?x", "user@example.com", "exa mple.com",
                      "https://", "example.com#f", "http://example.com:0"])
    func anythingElseIsRefused(text: String) {
        #expect(HeaderScope(text) == nil)
    }

    @Test func anOriginAdmitsOnlyItself() throws {
        let scope = try #require(HeaderScope("https://media.example.com"))
        #expect(scope.admits(try url("https://media.example.com/a.mp4")))
        #expect(scope.admits(try url("https://MEDIA.example.com:443/a.mp4")))
        #expect(!scope.admits(try url("http://media.example.com/a.mp4")))
        #expect(!scope.admits(try url("https://media.example.com:8443/a.mp4")))
        #expect(!scope.admits(try url("https://cdn.media.example.com/a.mp4")))
        #expect(!scope.admits(try url("https://media.example.com.evil.net/a.mp4")))
        #expect(!scope.admits(try url("https://evilmedia.example.com/a.mp4")))
    }

    @Test func aDomainAdmitsItselfAndNamesUnderItOnItsSchemeAndPort() throws {
        let scope = try #require(HeaderScope(".example.com"))
        #expect(scope.admits(try url("https://example.com/a.mp4")))
        #expect(scope.admits(try url("https://cdn.eu.example.com/a.mp4")))
        #expect(!scope.admits(try url("https://badexample.com/a.mp4")))
        #expect(!scope.admits(try url("https://example.com.evil.net/a.mp4")))
        #expect(!scope.admits(try url("http://cdn.example.com/a.mp4")))
        #expect(!scope.admits(try url("https://cdn.example.com:8443/a.mp4")))
    }

    /// `--header` goes where a scope admits the URL, or to every item's own origin when none is
    /// given.
    @Test func noScopeAdmitsEveryOriginAndScopesAdmitOnlyTheirs() throws {
        let none: [HeaderScope] = []
        #expect(none.admit(try url("https://anywhere.example/a.mp4")))
        let scoped = [HeaderScope("http://127.0.0.1:8080")].compactMap { $0 }
        #expect(scoped.admit(try url("http://127.0.0.1:8080/a.mp4")))
        #expect(!scoped.admit(try url("http://127.0.0.1:8081/a.mp4")))
    }
}
