import Foundation
import Testing
import VODAppPayload

struct WebhookSignatureTests {
    // GitHub's published example for X-Hub-Signature-256.
    let signature = WebhookSignature(secret: "It's a Secret to Everybody")
    let body = Data("Hello, World!".utf8)
    let expected = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"

    @Test func signsLikeGitHub() {
        #expect(signature.sign(body) == expected)
    }

    @Test func acceptsItsOwnAndUppercaseHex() {
        #expect(signature.verifies(expected, for: body))
        #expect(signature.verifies("sha256=" + expected.dropFirst(7).uppercased(), for: body))
    }

    @Test(arguments: [
        nil, "", "sha256=", "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
        "sha1=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
        "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e18",
        "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e",
        "sha256=zz7107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
    ])
    func refusesAnythingElse(_ header: String?) {
        #expect(!signature.verifies(header, for: body))
    }

    @Test func refusesTheRightSignatureOfOtherBytes() {
        #expect(!signature.verifies(expected, for: Data("Hello, World!\n".utf8)))
        #expect(!WebhookSignature(secret: "another").verifies(expected, for: body))
    }
}
