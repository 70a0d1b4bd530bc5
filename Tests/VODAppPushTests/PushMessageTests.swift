import Foundation
import Testing
import VODAppPush

struct PushMessageTests {
    /// Valid JSON, one byte over vodapp's limit once read.
    static let overOneMebibyte: Data = {
        var data = Data(#"{"aps": {}, "pad": ""#.utf8)
        data.append(Data(repeating: UInt8(ascii: "x"), count: 1 << 20))
        data.append(Data(#""}"#.utf8))
        return data
    }()

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
        #expect(message.refusalByVodapp == nil)
    }

    @Test func aSimctlApnsFileIsAPush() throws {
        let text = #"{"Simulator Target Bundle": "com.example.VODApp", "aps": {"content-available": 1}, "playlist": {}}"#
        let body = try PushMessage(data: Data(text.utf8)).body
        #expect(String(decoding: body, as: UTF8.self)
            == #"{"Simulator Target Bundle":"com.example.VODApp","aps":{"content-available":1},"playlist":{}}"#)
    }

    @Test func aPushVodappWouldRefuseIsStillAPushButFlaggedWithVodappsReason() throws {
        func refusal(_ text: String) throws -> String? { try PushMessage(data: Data(text.utf8)).refusalByVodapp }
        #expect(try refusal(#"{"aps": {"alert": "hi"}}"#) == "aps.content-available is missing, not 1: such a push would not wake the app in the background")
        #expect(try refusal(#"{"aps": {"content-available": 0}, "playlist": {}}"#)?.contains("is 0, not 1") == true)
        // JSONSerialization reads true as the number 1; vodapp does not, and now neither does the sender.
        #expect(try refusal(#"{"aps": {"content-available": true}, "playlist": {}}"#)?.contains("is a boolean, not 1") == true)
        #expect(try refusal(#"{"aps": {"content-available": 1}}"#) != nil)
    }

    @Test(arguments: [
        (Data([0x7B, 0xFF, 0x7D]), PushMessageError.notUTF8),
        // Judged as vodapp judges it: by its size first, not as JSON cut at the limit.
        (Self.overOneMebibyte, .tooLarge(limit: 1 << 20)),
        (Data(" \n".utf8), .notJSON("the payload is empty")),
        (Data("[1]".utf8), .notAnObject),
        (Data("\"aps\"".utf8), .notAnObject),
        (Data(#"{"playlist": {}}"#.utf8), .missingAPS),
        (Data(#"{"aps": 1}"#.utf8), .missingAPS),
    ])
    func whatIsNotAPushIsRefused(_ data: Data, _ error: PushMessageError) {
        #expect(throws: error) { try PushMessage(data: data) }
    }

    @Test func invalidJSONIsRefusedWithTheParsersReason() {
        #expect(throws: PushMessageError.notJSON("the text ends where a value should be at line 1, column 9")) {
            try PushMessage(data: Data(#"{"aps": "#.utf8))
        }
        #expect(throws: PushMessageError.notJSON("a comma before }, with no value after it at line 1, column 32")) {
            try PushMessage(data: Data(#"{"aps": {"content-available": 1,}}"#.utf8))
        }
    }
}
