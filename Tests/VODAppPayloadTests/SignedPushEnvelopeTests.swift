import Foundation
import Testing
import VODAppPayload

struct SignedPushEnvelopeTests {
    let signer = PushSignature(secret: "s3cret")
    let time: Int64 = 1_732_500_000
    let payload = Data(#"{"aps":{"content-available":1},"playlist":{"k":{"title":"Tülips \"2\"","url":"http://127.0.0.1:1/a.mp4"}}}"#.utf8)

    @Test func aSignedMessageOpensToTheVeryBytesThatWereSigned() throws {
        let message = SignedPushEnvelope(signing: payload, with: signer, at: time).message
        let envelope = try SignedPushEnvelope(message: message)
        #expect(envelope.timestamp == time)
        let opened = try envelope.open(with: signer, now: time + 10)
        #expect(opened.payload == payload)
        #expect(opened.code.count == 32)
    }

    @Test func theMessageIsCompactJSONWithThePayloadAsAString() throws {
        let message = SignedPushEnvelope(signing: Data(#"{"a":1}"#.utf8), with: signer, at: time).message
        // The signature of PushSignatureTests' vector: the same scheme as over HTTP.
        #expect(String(decoding: message, as: UTF8.self)
            == #"{"payload":"{\"a\":1}","vodapp-signature":{"t":1732500000,"v1":"dfc3b0ac7598f999b517eb8795ce6205f387cef8910c7496d06cd16a0540d165"}}"#)
    }

    @Test func aReserialisedEnvelopeStillOpens() throws {
        // A bridge that parses and writes the JSON again (other key order, spacing, escapes)
        // keeps the string's characters, and so the signature.
        let message = SignedPushEnvelope(signing: payload, with: signer, at: time).message
        let object = try JSONSerialization.jsonObject(with: message)
        let rewritten = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted])
        #expect(rewritten != message)
        #expect(try SignedPushEnvelope(message: rewritten).open(with: signer, now: time).payload == payload)
    }

    @Test func aTamperedOrOldOrForeignMessageIsRefused() throws {
        let message = String(decoding: SignedPushEnvelope(signing: payload, with: signer, at: time).message, as: UTF8.self)
        let tampered = message.replacingOccurrences(of: "a.mp4", with: "b.mp4")
        #expect(throws: SignedPushEnvelope.Failure.rejected(.mismatch)) {
            try SignedPushEnvelope(message: Data(tampered.utf8)).open(with: signer, now: time)
        }
        let retimed = message.replacingOccurrences(of: "1732500000", with: "1732500100")
        #expect(throws: SignedPushEnvelope.Failure.rejected(.mismatch)) {
            try SignedPushEnvelope(message: Data(retimed.utf8)).open(with: signer, now: time)
        }
        #expect(throws: SignedPushEnvelope.Failure.rejected(.tooOld(seconds: 600))) {
            try SignedPushEnvelope(message: Data(message.utf8)).open(with: signer, now: time + 600)
        }
        #expect(throws: SignedPushEnvelope.Failure.rejected(.mismatch)) {
            try SignedPushEnvelope(message: Data(message.utf8)).open(with: PushSignature(secret: "guess"), now: time)
        }
        for notAnEnvelope in [String(decoding: payload, as: UTF8.self), "", "[]", #"{"vodapp-signature":{"t":1,"v1":"ab"},"payload":{"aps":{}}}"#,
                              #"{"vodapp-signature":{"t":"1","v1":"ab"},"payload":"{}"}"#] {
            #expect(throws: SignedPushEnvelope.Failure.notAnEnvelope, "\(notAnEnvelope)") {
                try SignedPushEnvelope(message: Data(notAnEnvelope.utf8))
            }
        }
    }
}
