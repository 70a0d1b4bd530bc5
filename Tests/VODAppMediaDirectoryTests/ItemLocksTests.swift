import Foundation
import Testing
import VODAppMediaDirectory

/// Item locks as two deliveries see them: two `ItemLocks` on one real lock file are two open file
/// descriptions, which exclude each other as two processes do.
@Suite struct ItemLocksTests {
    private let path = NSTemporaryDirectory() + "/vodapp-locks-\(UInt32.random(in: 0...UInt32.max))"

    /// Letting go of some keys at once frees exactly those; once none is held, the one unlock of
    /// the whole file frees the last, and another delivery takes every key.
    @Test func keysLetGoTogetherAreFreeAndTheOthersStayHeld() throws {
        defer { unlink(path) }
        let first = try ItemLocks(path: path)
        let second = try ItemLocks(path: path)
        let keys = (0..<500).map { "item-\($0)" }
        #expect(keys.allSatisfy(first.take))
        #expect(!keys.contains(where: second.take))

        first.release(keys.prefix(300))
        #expect(keys.prefix(300).allSatisfy(second.take))
        #expect(!keys.dropFirst(300).contains(where: second.take))

        // A key not held, and one let go twice, change nothing.
        first.release(["never-taken", "item-0"])
        #expect(!keys.dropFirst(300).contains(where: second.take))

        first.release(keys.dropFirst(300))
        #expect(keys.dropFirst(300).allSatisfy(second.take))
        #expect(!keys.contains(where: first.take))
    }
}
