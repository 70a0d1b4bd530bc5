import Foundation
import Testing
import VODAppPayload

struct PushSignatureTests {
    let signer = PushSignature(secret: "s3cret")
    let body = Data(#"{"a":1}"#.utf8)
    let time: Int64 = 1_732_500_000
    // printf '%s.%s' 1732500000 '{"a":1}' | openssl dgst -sha256 -hmac s3cret -hex
    let expected = "v1=dfc3b0ac7598f999b517eb8795ce6205f387cef8910c7496d06cd16a0540d165"

    @Test func signsTheTimestampADotAndTheBodyAsOpenSSLDoes() {
        #expect(signer.sign(body, at: time) == expected)
    }

    @Test func acceptsItsOwnWithinFiveMinutesEitherWay() throws {
        for now in [time, time + 300, time - 300, time + 1] {
            let code = try signer.verify(timestamp: "\(time)", signature: expected, body: body, now: now)
            #expect(code.count == 32)
        }
        // Upper-case hex is the same code.
        _ = try signer.verify(timestamp: "\(time)", signature: "v1=" + expected.dropFirst(3).uppercased(), body: body, now: time)
    }

    @Test func refusesAnOldOrFutureTimestampBeforeLookingAtTheCode() {
        #expect(throws: PushSignature.Rejection.tooOld(seconds: 301)) {
            try signer.verify(timestamp: "\(time)", signature: expected, body: body, now: time + 301)
        }
        #expect(throws: PushSignature.Rejection.fromTheFuture(seconds: 301)) {
            try signer.verify(timestamp: "\(time)", signature: expected, body: body, now: time - 301)
        }
    }

    @Test(arguments: ["", "+1732500000", " 1732500000", "1732500000.0", "-5", "abc", "99999999999999999999"])
    func refusesATimestampThatIsNotPlainDigits(_ timestamp: String) {
        #expect(throws: PushSignature.Rejection.malformedTimestamp) {
            try signer.verify(timestamp: timestamp, signature: expected, body: body, now: time)
        }
    }

    @Test func refusesAnythingButTheCodeOfThisTimeAndTheseBytes() {
        let wrong = [
            PushSignature(secret: "guess").sign(body, at: time),
            signer.sign(body + Data(" ".utf8), at: time),
            // The same body at another second: the time is covered.
            signer.sign(body, at: time + 1),
        ]
        for signature in wrong {
            #expect(throws: PushSignature.Rejection.mismatch, "\(signature)") {
                try signer.verify(timestamp: "\(time)", signature: signature, body: body, now: time)
            }
        }
        // Not the scheme at all: said so, not that the code differs (the new-user trial's
        // signature without `v1=` read as a wrong secret).
        let malformed = [
            String(expected.dropFirst(3)),
            "v2=" + expected.dropFirst(3),
            "v1=" + String(repeating: "zz", count: 32),
            "v1=" + expected.dropFirst(5),
            "v1=",
            "",
            // The body-only form of a webhook sender.
            WebhookSignature(secret: "s3cret").sign(body),
        ]
        for signature in malformed {
            #expect(throws: PushSignature.Rejection.malformedSignature, "\(signature)") {
                try signer.verify(timestamp: "\(time)", signature: signature, body: body, now: time)
            }
        }
        #expect(throws: PushSignature.Rejection.missing) {
            try signer.verify(timestamp: "\(time)", signature: nil, body: body, now: time)
        }
        #expect(throws: PushSignature.Rejection.missing) {
            try signer.verify(timestamp: nil, signature: expected, body: body, now: time)
        }
    }

    @Test func eachRefusalIsOneLineThatSaysWhatToDo() {
        let all: [PushSignature.Rejection] = [.missing, .malformedTimestamp, .tooOld(seconds: 400), .fromTheFuture(seconds: 400), .malformedSignature, .mismatch]
        for rejection in all {
            #expect(!rejection.description.contains("\n"))
        }
        #expect(PushSignature.Rejection.missing.description.contains("X-VODApp-Signature"))
        #expect(PushSignature.Rejection.tooOld(seconds: 400).description.contains("400 s old"))
    }
}
