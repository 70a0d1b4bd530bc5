import Foundation
import Testing
import VODAppPush

struct PushMessageTests {
    @Test func compactingKeepsKeyOrderStringsAndNumbersExactly() throws {
        let text = """
        {
          "aps" : { "content-available" : 1, "alert" : "a  b\\" {x}" },
          "playlist" : {
            "z9" : { "title" : "Two  spaces\\n", "url" : "http://h/1.0e3" },
            "a1" : { "title" : "x", "url" : "http://h/2", "n" : 1.50 }
          }
        }
        """
        let message = try PushMessage(data: Data(text.utf8))
        #expect(String(decoding: message.body, as: UTF8.self)
            == #"{"aps":{"content-available":1,"alert":"a  b\" {x}"},"playlist":{"z9":{"title":"Two  spaces\n","url":"http://h/1.0e3"},"a1":{"title":"x","url":"http://h/2","n":1.50}}}"#)
        #expect(!message.doesNotWakeTheApp)
    }

    @Test func aSimctlApnsFileIsAPush() throws {
        let text = #"{"Simulator Target Bundle": "com.example.VODApp", "aps": {"content-available": 1}, "playlist": {}}"#
        let body = try PushMessage(data: Data(text.utf8)).body
        #expect(String(decoding: body, as: UTF8.self)
            == #"{"Simulator Target Bundle":"com.example.VODApp","aps":{"content-available":1},"playlist":{}}"#)
    }

    @Test func aPushThatWouldNotWakeTheAppIsStillAPushButFlagged() throws {
        #expect(try PushMessage(data: Data(#"{"aps": {"alert": "hi"}}"#.utf8)).doesNotWakeTheApp)
        #expect(try PushMessage(data: Data(#"{"aps": {"content-available": 0}}"#.utf8)).doesNotWakeTheApp)
    }

    @Test(arguments: [
        (Data([0x7B, 0xFF, 0x7D]), PushMessageError.notUTF8),
        (Data("[1]".utf8), .notAnObject),
        (Data("\"aps\"".utf8), .notAnObject),
        (Data(#"{"playlist": {}}"#.utf8), .missingAPS),
        (Data(#"{"aps": 1}"#.utf8), .missingAPS),
    ])
    func whatIsNotAPushIsRefused(_ data: Data, _ error: PushMessageError) {
        #expect(throws: error) { try PushMessage(data: data) }
    }

    @Test func invalidJSONIsRefusedWithTheParsersReason() {
        #expect(throws: PushMessageError.self) { try PushMessage(data: Data(#"{"aps": "#.utf8)) }
    }
}
