import Foundation
import Testing
import VODAppBase

/// The one way vodapp removes what is in a folder: through its descriptor, never through a link,
/// never recursively. Real folders, links and files.
@Suite struct FolderTests {
    private final class Scratch {
        let path = NSTemporaryDirectory() + "/vodapp-folder-\(UInt32.random(in: 0...UInt32.max))"
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func make(_ relative: String, _ text: String = "x") {
            let full = path + "/" + relative
            try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: full, contents: Data(text.utf8))
        }
        func entries(_ relative: String) -> [String] {
            (FileManager.default.enumerator(atPath: path + "/" + relative)?.allObjects as? [String] ?? []).sorted()
        }
    }

    @Test(arguments: ["", ".", "..", "a/b", "/a", "a\u{0}b", String(repeating: "n", count: 256)])
    func aNameThatIsNotOneComponentIsRefused(_ name: String) throws {
        let scratch = try Scratch()
        let folder = try Folder.open(scratch.path)
        #expect(!Folder.isComponent(name))
        #expect(folder.removeFile(name) == EINVAL)
        #expect(throws: SafeFile.Failure.self) { try folder.folder(name) }
        #expect(folder.status(name) == nil)
    }

    /// A link at a folder's name: removing the folder removes the link, not one file it names.
    @Test func removingALinkedFolderRemovesTheLinkOnly() throws {
        let scratch = try Scratch()
        scratch.make("outside/keep.txt")
        try FileManager.default.createDirectory(atPath: scratch.path + "/work", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/work/item.hls", withDestinationPath: scratch.path + "/outside")
        let work = try Folder.open(scratch.path, below: ["work"])
        #expect(throws: SafeFile.Failure.notRegular(path: work.path + "/item.hls", kind: "a symbolic link")) { try work.folder("item.hls") }
        #expect(work.removeFolder("item.hls") == .removed)
        #expect(scratch.entries("outside") == ["keep.txt"])
        #expect(scratch.entries("work").isEmpty)
    }

    /// `open(_:below:)` follows no link below its root.
    @Test func aLinkBelowTheRootIsNotFollowed() throws {
        let scratch = try Scratch()
        scratch.make("elsewhere/partial/x")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/.vodapp", withDestinationPath: scratch.path + "/elsewhere")
        #expect(throws: SafeFile.Failure.self) { try Folder.open(scratch.path, below: [".vodapp", "partial"]) }
    }

    /// A folder's files go (a link in it: the link); a folder that holds folders is moved aside
    /// whole, nothing in it removed.
    @Test func removingAFolderRemovesItsFilesAndNeverRecurses() throws {
        let scratch = try Scratch()
        scratch.make("outside/keep.txt")
        scratch.make("work/flat/a.seg")
        scratch.make("work/flat/b.seg")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/work/flat/link", withDestinationPath: scratch.path + "/outside/keep.txt")
        scratch.make("work/deep/a.seg")
        scratch.make("work/deep/inner/theirs.txt")
        let work = try Folder.open(scratch.path + "/work")
        #expect(work.removeFolder("flat") == .removed)
        #expect(scratch.entries("outside") == ["keep.txt"])
        guard case .movedAside(let aside) = work.removeFolder("deep") else {
            Issue.record("a folder holding a folder was not moved aside")
            return
        }
        #expect(FileManager.default.fileExists(atPath: aside + "/inner/theirs.txt"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/work/deep"))
    }

    /// A discarded folder's name is free at once; its files go when `emptyDiscarded` has time,
    /// all of them or none past the deadline, and never a link's target or a folder's contents.
    @Test func aDiscardedFolderIsFreedAtOnceAndEmptiedWithinADeadline() throws {
        let scratch = try Scratch()
        scratch.make("outside/keep.txt")
        for number in 0..<200 { scratch.make("work/item.hls/s\(number).seg") }
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/work/item.hls/link", withDestinationPath: scratch.path + "/outside/keep.txt")
        scratch.make("work/deep.hls/a.seg")
        scratch.make("work/deep.hls/inner/theirs.txt")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/work/linked.hls", withDestinationPath: scratch.path + "/outside")
        let work = try Folder.open(scratch.path + "/work")

        #expect(work.discard("item.hls") == .removed)
        #expect(work.discard("deep.hls") == .removed)
        #expect(work.discard("linked.hls") == .removed)
        #expect(scratch.entries("outside") == ["keep.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == [Folder.discardedName])
        let discarded = try FileManager.default.contentsOfDirectory(atPath: work.path + "/" + Folder.discardedName).sorted()
        #expect(discarded.count == 2 && discarded[0].hasPrefix("deep.hls-") && discarded[1].hasPrefix("item.hls-"), "\(discarded)")
        #expect(scratch.entries("work/\(Folder.discardedName)/\(discarded[1])").count == 201)

        // Past its deadline, nothing is removed.
        #expect(!work.emptyDiscarded(until: .now - .seconds(1)))
        #expect(scratch.entries("work/\(Folder.discardedName)/\(discarded[1])").count == 201)

        // The files go, the link (not its target) with them; a folder planted in one stays, whole.
        #expect(!work.emptyDiscarded(until: .now + .seconds(60)))
        #expect(scratch.entries("outside") == ["keep.txt"])
        #expect(scratch.entries("work") == [Folder.discardedName, "\(Folder.discardedName)/\(discarded[0])",
                                             "\(Folder.discardedName)/\(discarded[0])/inner",
                                             "\(Folder.discardedName)/\(discarded[0])/inner/theirs.txt"])

        // With nothing held back, the hidden folder goes too.
        try FileManager.default.removeItem(atPath: work.path + "/\(Folder.discardedName)/\(discarded[0])/inner")
        #expect(work.emptyDiscarded(until: .now + .seconds(60)))
        #expect(scratch.entries("work").isEmpty)
    }

    /// A rename that would replace a file does not happen.
    @Test func renamingNeverReplaces() throws {
        let scratch = try Scratch()
        scratch.make("a", "first")
        scratch.make("b", "second")
        let folder = try Folder.open(scratch.path)
        #expect(folder.rename("a", to: folder, as: "b") == EEXIST)
        #expect(FileManager.default.contents(atPath: scratch.path + "/b") == Data("second".utf8))
        #expect(folder.rename("a", to: folder, as: "c") == 0)
    }

    /// A work area (or a folder in it) that is another user's, swapped in while vodapp runs: no
    /// file in it is opened, created, listed or removed through a path into it, whatever a check
    /// at the start of the run saw. (The attacker trial's spool push was read from such a
    /// folder as signed, and a partial of the attacker's was resumed as the user's download.)
    @Test(.enabled(if: geteuid() == 0, "needs root, to give a folder to another user"))
    func aWorkAreaThatIsAnotherUsersIsNeverWalkedInto() throws {
        let scratch = try Scratch()
        scratch.make(".vodapp/partial/thesis.part", "theirs")
        scratch.make(".vodapp/spool/1.json", "{}")
        let area = scratch.path + "/.vodapp"
        let nobody: uid_t = 65_534
        #expect(chown(area, nobody, gid_t.max) == 0)
        #expect(throws: SafeFile.Failure.self) { try SafeFile.open(area + "/partial/thesis.part", O_RDONLY) }
        #expect(throws: SafeFile.Failure.self) { try SafeFile.create(area + "/partial/new.part") }
        #expect(throws: SafeFile.Failure.self) { try SafeFile.contents(of: area + "/spool/1.json", limit: 100) }
        #expect(SafeFile.remove(area + "/partial/thesis.part") != 0)
        #expect(throws: SafeFile.Failure.self) { try Folder.openWorkArea(in: scratch.path, below: ["partial"]) }
        #expect(scratch.entries(".vodapp") == ["partial", "partial/thesis.part", "spool", "spool/1.json"])
        // The message is the work area's refusal, naming the owner.
        do {
            _ = try Folder.openWorkArea(in: scratch.path)
            Issue.record("opened another user's work area")
        } catch {
            #expect(error.description.contains("belongs to"), "\(error.description)")
        }
        // A folder deeper in it, given away the same way, is refused as well.
        #expect(chown(area, geteuid(), gid_t.max) == 0)
        #expect(chown(area + "/partial", nobody, gid_t.max) == 0)
        #expect(throws: SafeFile.Failure.self) { try SafeFile.open(area + "/partial/thesis.part", O_RDONLY) }
        #expect((try? SafeFile.contents(of: area + "/spool/1.json", limit: 100)) == Array("{}".utf8))
    }
}
