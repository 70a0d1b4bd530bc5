import Testing
@testable import VODAppListen

struct SignatureMemoryTests {
    let now: Int64 = 1_732_500_000

    @Test func aCodeIsTakenOnceWithinTheWindow() throws {
        var memory = SignatureMemory()
        try memory.admit([1], signedAt: now, now: now)
        #expect(throws: SignatureMemory.Refusal.replayed) { try memory.admit([1], signedAt: now, now: now + 299) }
        try memory.admit([2], signedAt: now, now: now)
        #expect(memory.count == 2)
    }

    @Test func anEntryExpiresWhenItsTimeCouldNoLongerPass() throws {
        var memory = SignatureMemory()
        try memory.admit([1], signedAt: now, now: now)
        // Signed 4 minutes ahead of this clock: kept until 5 minutes after that time.
        try memory.admit([2], signedAt: now + 240, now: now)
        try memory.admit([3], signedAt: now + 1, now: now + 301)
        #expect(memory.count == 2, "the first one is gone")
        #expect(throws: SignatureMemory.Refusal.replayed) { try memory.admit([2], signedAt: now + 240, now: now + 540) }
        try memory.admit([4], signedAt: now + 541, now: now + 541)
        #expect(memory.count == 2)
    }

    @Test func aFullMemoryRefusesRatherThanForgets() throws {
        var memory = SignatureMemory(capacity: 3)
        for code in 0..<3 { try memory.admit([UInt8(code)], signedAt: now, now: now) }
        #expect(throws: SignatureMemory.Refusal.full(capacity: 3)) { try memory.admit([9], signedAt: now, now: now) }
        // The ones it holds are still refused as replays.
        #expect(throws: SignatureMemory.Refusal.replayed) { try memory.admit([0], signedAt: now, now: now + 1) }
        // Once they expire there is room again.
        try memory.admit([9], signedAt: now + 301, now: now + 301)
        #expect(memory.count == 1)
    }

    @Test func aForgottenCodeMayComeAgain() throws {
        var memory = SignatureMemory()
        try memory.admit([1], signedAt: now, now: now)
        memory.forget([1])
        try memory.admit([1], signedAt: now, now: now)
    }
}
