import Foundation
import Testing
import VODAppBase

/// The folders a delivery holds while it runs: checked as a walk from DIR checks them, then used
/// by every item through their descriptors. Real folders, links and files.
@Suite struct FolderHoldTests {
    private final class Scratch {
        let path = NSTemporaryDirectory() + "/vodapp-hold-\(UInt32.random(in: 0...UInt32.max))"
        var dir: String { path + "/DIR" }
        init() throws {
            try FileManager.default.createDirectory(atPath: path + "/DIR/.vodapp/partial", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: path + "/outside/partial", withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func names(_ relative: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + relative)) ?? []).sorted()
        }
        /// `.vodapp` renamed away and a link to a folder outside DIR put at its name, as someone
        /// who may rename in DIR could while a delivery runs.
        func swapWorkArea() throws {
            try FileManager.default.moveItem(atPath: dir + "/.vodapp", toPath: dir + "/.moved")
            try FileManager.default.createSymbolicLink(atPath: dir + "/.vodapp", withDestinationPath: path + "/outside")
        }
    }

    private func write(_ text: String, creating path: String) throws {
        let fd = try SafeFile.create(path)
        defer { close(fd) }
        #expect(Foundation.write(fd, text, text.utf8.count) == text.utf8.count)
    }

    @Test func aHeldWorkAreaIsWrittenInAsCheckedWhenItsNameIsSwappedForALink() throws {
        let scratch = try Scratch()
        let partial = scratch.dir + "/.vodapp/partial/k.part"
        let hold = try FolderHold(workAreaOf: scratch.dir, below: ["partial"])
        try scratch.swapWorkArea()

        try write("held", creating: partial)
        #expect(scratch.names("DIR/.moved/partial") == ["k.part"])
        #expect(try String(contentsOfFile: scratch.dir + "/.moved/partial/k.part", encoding: .utf8) == "held")
        #expect(scratch.names("outside/partial").isEmpty)
        // Removal goes through the held folder too: the file the hold put there, not the link's.
        #expect(SafeFile.remove(partial) == 0)
        #expect(scratch.names("DIR/.moved/partial").isEmpty)

        // Let go, the path is walked again, and the link refused: nothing is written outside.
        hold.release()
        #expect(throws: SafeFile.Failure.self) { try write("walked", creating: partial) }
        #expect(scratch.names("outside/partial").isEmpty)
    }

    @Test func aHoldIsRefusedWhereAWalkWouldBe() throws {
        let scratch = try Scratch()
        try scratch.swapWorkArea()
        #expect(throws: SafeFile.Failure.self) { try FolderHold(workAreaOf: scratch.dir, below: ["partial"]) }
        #expect(throws: SafeFile.Failure.self) { try write("walked", creating: scratch.dir + "/.vodapp/partial/k.part") }
        #expect(scratch.names("outside/partial").isEmpty)
    }

    /// Two deliveries to one DIR each hold its folders; the first to end leaves the other's.
    @Test func aHoldLetGoLeavesAnotherHoldOfTheSameFolders() throws {
        let scratch = try Scratch()
        let first = try FolderHold(workAreaOf: scratch.dir, below: ["partial"])
        let second = try FolderHold(workAreaOf: scratch.dir, below: ["partial"])
        try scratch.swapWorkArea()
        first.release()
        try write("second", creating: scratch.dir + "/.vodapp/partial/k.part")
        #expect(scratch.names("DIR/.moved/partial") == ["k.part"])
        second.release()
        #expect(throws: SafeFile.Failure.self) { try write("walked", creating: scratch.dir + "/.vodapp/partial/j.part") }
        #expect(scratch.names("outside/partial").isEmpty)
    }
}
