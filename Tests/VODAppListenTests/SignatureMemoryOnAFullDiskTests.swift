import Foundation
import Testing
import UnitTestSupport
@testable import VODAppListen

/// The signatures file on a disk that is full: a push whose signature cannot be written is not
/// taken. Taken, it could be taken again by another listener on the same DIR, or by this one
/// restarted: two listeners both took the same push 50 times in 50 (fourth attacker trial).
@Suite struct SignatureMemoryOnAFullDiskTests {
    @Test(.enabled("mounting a tmpfs is not allowed here") { await TmpfsMount.isAllowed })
    func aSignatureThatCannotBeWrittenIsNotTaken() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withTmpfsMount(at: dir, size: "256k") { _ in
            try FileManager.default.createDirectory(atPath: dir + "/.vodapp", withIntermediateDirectories: true)
            chmod(dir + "/.vodapp", 0o755)
            let file = dir + "/.vodapp/signatures"
            let now: Int64 = 1_732_500_000
            let first = SharedSignatureMemory(keptAt: file, now: now)
            try first.admit([1], signedAt: now, now: now)

            // The disk full: the next signature is refused, with why, and not remembered.
            // Plain descriptors: the filler is closed for certain before it is removed, so that
            // its space comes back (a FileHandle left open kept it, once, under load).
            let filler = open(dir + "/filler", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            #expect(filler >= 0)
            let block = [UInt8](repeating: 0, count: 4096)
            while write(filler, block, block.count) > 0 {}
            #expect(close(filler) == 0)
            #expect {
                try first.admit([2], signedAt: now, now: now)
            } throws: { error in
                guard case .unrecorded(let reason) = error as? SignatureMemory.Refusal else { return false }
                return reason.contains("No space left on device")
            }

            // Room again: the same signature is taken once, by this listener or another.
            try FileManager.default.removeItem(atPath: dir + "/filler")
            try first.admit([2], signedAt: now, now: now)
            let second = SharedSignatureMemory(keptAt: file, now: now)
            #expect(throws: SignatureMemory.Refusal.replayed) { try second.admit([2], signedAt: now, now: now) }
            #expect(throws: SignatureMemory.Refusal.replayed) { try second.admit([1], signedAt: now, now: now) }
        }
    }
}
