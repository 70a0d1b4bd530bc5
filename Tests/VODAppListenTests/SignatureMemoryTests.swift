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

    /// What a restart reads back: the codes still inside their window, and nothing else.
    @Test func theKeptTextGivesBackTheLiveCodes() throws {
        var memory = SignatureMemory()
        try memory.admit([0xAB, 0x01], signedAt: now, now: now)
        try memory.admit([0xCD], signedAt: now + 100, now: now + 100)
        #expect(memory.text == "\(now + 300) ab01\n\(now + 400) cd\n")
        var restarted = SignatureMemory(text: memory.text, now: now + 350)
        #expect(restarted.count == 1, "the first expired at \(now + 300)")
        #expect(throws: SignatureMemory.Refusal.replayed) { try restarted.admit([0xCD], signedAt: now + 100, now: now + 350) }
        try restarted.admit([0xAB, 0x01], signedAt: now + 350, now: now + 350)
    }

    /// A torn or foreign line is skipped, and no expiry lasts past two windows from now.
    @Test func aLineThatIsNotExpiryAndHexIsSkipped() {
        let text = "garbage\n\(now + 10) zz\n\(now + 10)\n\(now + 10) ab cd\n\(now + 100_000) ef\n\(now + 10) 01"
        let memory = SignatureMemory(text: text, now: now)
        #expect(memory.count == 2)
        #expect(memory.text == "\(now + 10) 01\n\(now + 600) ef\n")
    }

    /// Two listeners' memories of one DIR: each code at its later expiry, within the capacity.
    @Test func mergingKeepsEveryCodeAtItsLaterExpiry() throws {
        var mine = SignatureMemory(capacity: 3)
        try mine.admit([1], signedAt: now, now: now)
        var theirs = SignatureMemory()
        try theirs.admit([1], signedAt: now + 10, now: now + 10)
        try theirs.admit([2], signedAt: now, now: now)
        try theirs.admit([3], signedAt: now, now: now)
        try theirs.admit([4], signedAt: now, now: now)
        mine.merge(theirs)
        #expect(mine.count == 3)
        #expect(mine.text.hasPrefix("\(now + 300) "), "\(mine.text)")
        #expect(mine.text.contains("\(now + 310) 01"), "\(mine.text)")
        #expect(throws: SignatureMemory.Refusal.replayed) { try mine.admit([1], signedAt: now + 10, now: now + 305) }
    }
}
