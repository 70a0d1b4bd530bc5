import Foundation
import Testing
import VODAppModel
import VODAppPayload

@Suite struct PayloadTests {
    private func parse(_ text: String) throws(PayloadError) -> Payload {
        try Payload(data: Data(text.utf8))
    }

    private func item(_ key: String, _ value: String) -> String {
        #"{"aps":{"content-available":1},"playlist":{"\#(key)":\#(value)}, "_pad": 0}"#
    }

    @Test func samplePayloadOfTheOriginalAppIsAccepted() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../SamplePayloads/vodapp-sample.json")
        let payload = try Payload(data: try Data(contentsOf: url))
        #expect(payload.items.count == 5)
        #expect(payload.validItems.count == 5)
        let tulips = try #require(payload.items.first { $0.key == "f3058e6662927f1fcd17840469cfd5f3" })
        #expect(tulips.title == "Tulips")
        #expect(tulips.urlString == "https://my.domain.com/media/sample4.mp4")
    }

    @Test func simctlApnsFileWithAlertAndTargetBundleIsAccepted() throws {
        let payload = try parse("""
        {"Simulator Target Bundle": "com.example.vodapp",
         "aps": {"content-available": 1, "alert": "hi", "badge": 2, "sound": "default"},
         "playlist": {"k1": {"title": "A", "subtitle": "B", "url": "http://example.com/a.mp4"}}}
        """)
        #expect(payload.items == [PlaylistItem(key: "k1", validity: .valid(
            title: "A", subtitle: "B", url: try MediaURL("http://example.com/a.mp4")))])
    }

    private func alert(_ json: String) throws -> (alert: PushAlert?, ignored: String?) {
        let payload = try parse(#"{"aps":{"content-available":1,"alert":\#(json)},"playlist":{"k":{"title":"T","url":"http://h/a.mp4"}}}"#)
        #expect(payload.validItems.count == 1, "an alert never costs the playlist")
        return (payload.alert, payload.ignoredAlert)
    }

    @Test func anAlertIsTextOrATitleSubtitleAndBody() throws {
        #expect(try alert(#""New videos""#).alert == PushAlert(title: nil, body: "New videos"))
        #expect(try alert(#"{"title":"Season 2","subtitle":"Episodes 3-4","body":"Two new videos","loc-key":"X"}"#).alert
                == PushAlert(title: "Season 2", subtitle: "Episodes 3-4", body: "Two new videos"))
        #expect(try alert(#"{"body":"Only a body"}"#).alert == PushAlert(title: nil, body: "Only a body"))
        #expect(try alert(#"{"title":"Only a title","body":"  "}"#).alert == PushAlert(title: "Only a title", body: nil))
        let without = try parse(#"{"aps":{"content-available":1},"playlist":{}}"#)
        #expect(without.alert == nil && without.ignoredAlert == nil)
    }

    @Test(arguments: [
        (#"5"#, "aps.alert is a number, not a string or an object"),
        (#""   ""#, "aps.alert is empty"),
        (#"{"title":["a"]}"#, "aps.alert.title is an array, not a string"),
        (#"{"loc-key":"NEW_VIDEOS","loc-args":["3"]}"#, "aps.alert has no title or body text to show"),
        (#"{"subtitle":"a subtitle alone"}"#, "aps.alert has no title or body text to show"),
    ])
    func anAlertThatCannotBeShownIsIgnoredAndSaysWhy(json: String, why: String) throws {
        let read = try alert(json)
        #expect(read.alert == nil)
        #expect(read.ignored == why)
    }

    @Test(arguments: [
        ("\u{FF}\u{FE}", "not UTF-8"),
        ("{\"aps\":", "not valid JSON"),
        ("[1, 2]", "must be a JSON object, found an array"),
        ("{\"playlist\": {}}", "no \"aps\""),
        ("{\"aps\": 1, \"playlist\": {}}", "no \"aps\""),
        ("{\"aps\": {}, \"playlist\": {}}", "content-available is missing"),
        ("{\"aps\": {\"content-available\": 0}, \"playlist\": {}}", "content-available is 0"),
        ("{\"aps\": {\"content-available\": \"1\"}, \"playlist\": {}}", "content-available is a string"),
        ("{\"aps\": {\"content-available\": true}, \"playlist\": {}}", "content-available is a boolean"),
        ("{\"aps\": {\"content-available\": 1}}", "no \"playlist\""),
        ("{\"aps\": {\"content-available\": 1}, \"playlist\": []}", "found an array"),
        ("{\"aps\": {\"content-available\": 1}, \"playlist\": {\"a\": 1, \"b\": {\"title\": \"t\"}}}", "all 2 playlist item(s) are invalid"),
    ])
    func wholePayloadRejections(text: String, message: String) {
        let data: Data = text == "\u{FF}\u{FE}" ? Data([0xFF, 0xFE, 0x7B, 0x7D]) : Data(text.utf8)
        #expect {
            try Payload(data: data)
        } throws: { error in
            (error as? PayloadError).map { $0.description.contains(message) } ?? false
        }
    }

    @Test func payloadOverOneMebibyteIsRejected() {
        let padding = String(repeating: "x", count: Payload.maximumSize)
        let text = #"{"aps":{"content-available":1},"playlist":{},"pad":"\#(padding)"}"#
        #expect(throws: PayloadError.tooLarge(limit: Payload.maximumSize)) { try parse(text) }
    }

    @Test func emptyPlaylistIsAcceptedWithNoItems() throws {
        #expect(try parse(#"{"aps":{"content-available":1},"playlist":{}}"#).items.isEmpty)
    }

    @Test(arguments: [
        "../x", "a/b", "", String(repeating: "k", count: 129), "a b", "a.b", "\\u0000x", "é",
    ])
    func hostileKeysAreInvalid(key: String) throws {
        let payload = try parse(#"""
        {"aps":{"content-available":1},"playlist":{
          "\#(key)": {"title": "T", "url": "http://example.com/a.mp4"},
          "good": {"title": "G", "url": "http://example.com/g.mp4"}}}
        """#)
        let hostile = try #require(payload.items.first { $0.key != "good" })
        #expect(!hostile.isValid)
        #expect(payload.validItems.map(\.key) == ["good"])
    }

    @Test func keyOf128CharactersIsValid() throws {
        let key = String(repeating: "a", count: 64) + String(repeating: "Z_-9", count: 16)
        let payload = try parse(item(key, #"{"title":"T","url":"https://example.com/v"}"#))
        #expect(payload.items.first?.isValid == true)
    }

    @Test(arguments: [
        ("file:///etc/passwd", "scheme \"file\""),
        ("ftp://example.com/a.mp4", "scheme \"ftp\""),
        ("gopher://example.com/a", "scheme \"gopher\""),
        ("/media/a.mp4", "not an absolute URL"),
        ("media/a.mp4", "not an absolute URL"),
        ("http://", "has no host"),
        ("127.0.0.1:8080/a.mp4", "not an absolute URL: it must start with http:// or https://"),
        ("localhost:8080/a.mp4", "not an absolute URL: it must start with http:// or https://"),
        ("http://example.com:0/a.mp4", "has a port that is not a number from 1 to 65535"),
        ("http://exa mple.com/a", "host name that is not valid"),
        // IDNA refuses a right-to-left override; libcurl 7.88 leaks the host it fails to convert
        // unless vodapp frees it (Fuzz/run finds that leak).
        ("http://ab\\u202Ebad.com/a.mp4", "not a valid international domain name"),
    ])
    func unfetchableURLsAreInvalid(url: String, reason: String) throws {
        let payload = try parse(#"""
        {"aps":{"content-available":1},"playlist":{
          "bad": {"title": "T", "url": "\#(url)"},
          "good": {"title": "G", "url": "http://example.com/g.mp4"}}}
        """#)
        let bad = try #require(payload.items.first { $0.key == "bad" })
        guard case .invalid(let message, _, _) = bad.validity else {
            Issue.record("\(url) was accepted")
            return
        }
        #expect(message.contains(reason), "\(message)")
    }

    @Test func aPasswordInAURLIsNeverShownValidOrNot() throws {
        let payload = try parse(#"""
        {"aps":{"content-available":1},"playlist":{
          "good": {"title": "G", "url": "https://me:s3cret@example.com/g.mp4?x=1"},
          "bad": {"title": "B", "url": "https://me:s3cret@exa mple.com/b.mp4"},
          "odd": {"title": "O", "url": "ftp://me:s3cret@example.com/o.mp4"}}}
        """#)
        let shown = payload.items.map { $0.urlString ?? "" }
        #expect(shown == ["https://me:***@example.com/g.mp4?x=1", "https://me:***@exa mple.com/b.mp4",
                          "ftp://me:***@example.com/o.mp4"])
        #expect(MediaURL.redacting("http://example.com/a@b:c") == "http://example.com/a@b:c")
        #expect(MediaURL.redacting("not a url") == "not a url")
        #expect(MediaURL.redacting("//alice:pw@host/x") == "//alice:***@host/x")
        #expect(MediaURL.redacting("alice:pw@host/x") == "alice:***@host/x")
    }

    @Test(arguments: [
        (#""just a string""#, "item is a string, not an object"),
        (#"{"url":"http://e.com/a"}"#, "title is missing"),
        (#"{"title":5,"url":"http://e.com/a"}"#, "title is a number, not a string"),
        (#"{"title":"T","subtitle":null,"url":"http://e.com/a"}"#, "subtitle is null, not a string"),
        (#"{"title":"T"}"#, "url is missing"),
        (#"{"title":"T","url":["http://e.com/a"]}"#, "url is an array, not a string"),
    ])
    func malformedItemsAreInvalidWithAReason(value: String, reason: String) throws {
        let payload = try parse(#"{"aps":{"content-available":1},"playlist":{"bad":\#(value),"good":{"title":"G","url":"http://e.com/g"}}}"#)
        let bad = try #require(payload.items.first { $0.key == "bad" })
        #expect(bad.validity.reason == reason)
    }

    @Test func itemsKeepThePayloadsOrderNotTheKeysSortedOrder() throws {
        // Keys chosen so that neither sorted nor hash order could give this order by chance.
        let keys = ["zeta", "alpha", "m-3", "B", "a_1", "ep10", "ep2", "Z", "0"]
        let members = keys.map { #""\#($0)":{"title":"T \#($0)","url":"http://e.com/\#($0).mp4"}"# }
        let payload = try parse("{\"playlist\": {\n  " + members.joined(separator: ",\n  ") + "}, \"aps\": {\"content-available\": 1}}")
        #expect(payload.items.map(\.key) == keys)
    }

    @Test func orderSurvivesEscapesNestingAndDecoysBeforeThePlaylist() throws {
        let text = #"""
        {"aps": {"content-available": 1, "alert": {"playlist": {"decoy": 1}}},
         "note": "a \"playlist\": {\"decoy\": 2} in a string, and [\"]\" ",
         "list": [{"playlist": {}}, [], [1.5e3, true, null, "}"]],
         "play\u006cist": {
           "b\u0032": {"title": "x", "url": "http://e.com/1", "extra": {"k": [{}, {"z": "\u00e9\ud83c\udfac"}]}},
           "a": {"title": "y", "url": "http://e.com/2"},
           "c": 5
         }}
        """#
        let payload = try parse(text)
        #expect(payload.items.map(\.key) == ["b2", "a", "c"])
        #expect(payload.items.first?.title == "x")
    }

    /// RFC 8259 and nothing more: what Foundation's parsers let through (a trailing comma, a key
    /// written twice, whose second value they never read) would let two receivers read one
    /// payload two ways.
    @Test(arguments: [
        (#"{"aps": {"content-available": 1}, "playlist": {"a": {"title": "A", "url": "http://e.com/a"},}}"#, "a comma before }, with no value after it at line 1, column 92"),
        (#"{"aps": {"content-available": 1,}, "playlist": {}}"#, "a comma before }"),
        (#"{"aps": {"content-available": 1}, "playlist": {"a": {"title": "A", "url": "http://e.com/a", "n": [1, 2,]}}}"#, "a comma before ]"),
        (#"{"aps": {"content-available": 1}, "playlist": {"a": {"title": "A", "url": "http://e.com/a"}, "a": {"t\ud800": "\N"}}}"#,
         #"the key "a" appears twice in one object at line 1, column 94"#),
        (#"{"aps": {"content-available": 1}, "aps": {"content-available": 1}, "playlist": {}}"#, #"the key "aps" appears twice"#),
        ("{\"aps\": {\"content-available\": 1},\n \"playlist\": {\"a\": {\"title\": \"A\", \"title\": \"B\", \"url\": \"http://e.com/a\"}}}",
         #"the key "title" appears twice in one object at line 2, column 35"#),
        (#"{"aps": {"content-available": 01}, "playlist": {}}"#, "a number with a leading zero"),
        (#"{"aps": {"content-available": 1.}, "playlist": {}}"#, "no digit after its decimal point"),
        (#"{"aps": {"content-available": +1}, "playlist": {}}"#, "'+' where a value should be"),
        (#"{"aps": {"content-available": NaN}, "playlist": {}}"#, "'N' where a value should be"),
        (#"{"aps": {"content-available": -1e999}, "playlist": {}}"#, "a number too large to represent at line 1, column 31"),
        (#"{"aps": {"content-available": 1}, "playlist": {'a': 1}}"#, "''' where a key in quotes should be"),
        ("{\"aps\": {\"content-available\": 1}, \"playlist\": {\"a\u{1}\": 1}}", "a control character (byte 0x1) inside a string"),
        (#"{"aps": {"content-available": 1}, "playlist": {"a\x": 1}}"#, #"\x is not an escape JSON has"#),
        (#"{"aps": {"content-available": 1}, "playlist": {"\udc00": 1}}"#, "half of a surrogate pair"),
        (#"{"aps": {"content-available": 1}, "playlist": {}} {}"#, "text after the JSON value"),
        ("\u{FEFF}{\"aps\": {\"content-available\": 1}, \"playlist\": {}}", "a byte-order mark (EF BB BF) before the JSON"),
        (#"{"aps": {"content-available": 1}, "playlist": {}"#, "the text ends where ',' or '}' after a member should be"),
        (String(repeating: "[", count: 200) + String(repeating: "]", count: 200), "nested more than 128 deep"),
    ])
    func whatRFC8259RefusesIsNotJSON(text: String, reason: String) throws {
        do {
            _ = try Payload(data: Data(text.utf8))
            Issue.record("accepted: \(text)")
        } catch {
            guard case .notJSON(let detail) = error else {
                Issue.record("refused for another reason: \(error)")
                return
            }
            #expect(detail.contains(reason), "\(detail)")
            #expect(error.description.hasPrefix("payload is not valid JSON: "), "\(error.description)")
        }
    }

    /// RFC 8259 compares names code point by code point: "é" (U+00E9) and "e" + U+0301 are two
    /// keys, though Swift's String equality takes them for one.
    @Test func keysThatOnlyLookAlikeAreTwoKeys() throws {
        let value = try JSONParser.parse(Data("{\"\u{E9}\": 1, \"e\u{301}\": 2}".utf8))
        guard case .object(let object) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(object.members.map { Array($0.key.unicodeScalars) } == [["\u{E9}"], ["e", "\u{301}"]])
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Data("{\"\u{E9}\": 1, \"\u{E9}\": 2}".utf8)) }
    }

    @Test func everythingJSONHasIsRead() throws {
        let value = try JSONParser.parse(Data(#" {"s": "a\"\\\/\b\f\n\r\t\u00e9\ud83c\udfac", "n": [0, -0.5, 12e2, 1E-2, -3], "l": [true, false, null], "o": {}} "#.utf8))
        guard case .object(let object) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(object.members.map(\.key) == ["s", "n", "l", "o"])
        #expect(object["s"] == .string("a\"\\/\u{8}\u{C}\n\r\té🎬"))
        #expect(object["n"] == .array([.number(0), .number(-0.5), .number(1200), .number(0.01), .number(-3)]))
        #expect(object["l"] == .array([.bool(true), .bool(false), .null]))
        #expect(object["o"] == .object(JSONObject(members: [])))
    }

    @Test func fileExtensionComesFromTheURLPathOnlyWhenItIsPlain() throws {
        #expect(try MediaURL("https://h/media/sample4.MP4?x=1").fileExtension == "mp4")
        #expect(try MediaURL("https://h/media/sample").fileExtension == nil)
        #expect(try MediaURL("https://h/media/a.b%2F..").fileExtension == nil)
        #expect(try MediaURL("https://h/").fileExtension == nil)
    }
}

extension PlaylistItem.Validity {
    var reason: String? {
        if case .invalid(let reason, _, _) = self { return reason }
        return nil
    }
}
