import Testing
@testable import VODAppCore

struct ItemClaimsTests {
    let claims = ItemClaims()
    let report = ItemReport(key: "k", title: "T", url: "http://h/x", status: .downloaded, bytes: 3, path: "/d/k.mp4")

    @Test func aHeldPathCannotBeClaimedAgainUntilReleased() {
        #expect(claims.claim("/d/k.mp4"))
        #expect(!claims.claim("/d/k.mp4"))
        #expect(claims.claim("/other/k.mp4"))
        claims.release("/d/k.mp4", outcome: report)
        #expect(claims.claim("/d/k.mp4"))
    }

    @Test func waitersLearnTheHoldersOutcome() async {
        #expect(claims.claim("/d/k.mp4"))
        async let first = claims.wait(for: "/d/k.mp4", until: .now + .seconds(10))
        async let second = claims.wait(for: "/d/k.mp4", until: .now + .seconds(10))
        while claims.waiterCount(for: "/d/k.mp4") < 2 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        claims.release("/d/k.mp4", outcome: report)
        #expect(await first == .finished(report))
        #expect(await second == .finished(report))
    }

    @Test func aWaitEndsAtItsDeadline() async {
        #expect(claims.claim("/d/k.mp4"))
        let started = ContinuousClock.now
        #expect(await claims.wait(for: "/d/k.mp4", until: .now + .milliseconds(100)) == .deadline)
        #expect(started.duration(to: .now) < .seconds(5))
        // A deadline already past answers at once.
        #expect(await claims.wait(for: "/d/k.mp4", until: .now - .seconds(1)) == .deadline)
        claims.release("/d/k.mp4", outcome: report)
    }

    @Test func waitingForWhatNobodyHoldsAnswersAtOnce() async {
        #expect(await claims.wait(for: "/d/free.mp4", until: .now + .seconds(10)) == .notHeld)
    }
}
