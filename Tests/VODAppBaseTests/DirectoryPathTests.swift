import Foundation
import Testing
import VODAppBase

/// Whether another user could change where the path to DIR leads: a pure rule over the folders
/// on the way, their owners and modes.
@Suite struct DirectoryPathTests {
    private let me: uid_t = 1000
    private let them: uid_t = 1001

    private func step(_ path: String, _ owner: uid_t, _ mode: mode_t) -> DirectoryPath.Step {
        DirectoryPath.Step(path: path, owner: owner, mode: S_IFDIR | mode)
    }

    /// A home, /tmp, /media: folders of root's or the user's that nobody else may write, or
    /// sticky ones of root's.
    @Test func theUsualWaysAreTheUsers() {
        #expect(DirectoryPath.refusal(of: [step("/", 0, 0o755), step("/home", 0, 0o755), step("/home/me", me, 0o700)], runningAs: me) == nil)
        #expect(DirectoryPath.refusal(of: [step("/", 0, 0o755), step("/tmp", 0, 0o1777)], runningAs: me) == nil)
        #expect(DirectoryPath.refusal(of: [step("/", 0, 0o755), step("/srv", 0, 0o755), step("/srv/mine", me, 0o1775)], runningAs: me) == nil)
    }

    /// The second attacker trial's way: a sticky folder of another user's in /tmp, whose owner
    /// may rename DIR for a link.
    @Test func aFolderOfAnotherUsersOnTheWayIsNamed() {
        let refusal = DirectoryPath.refusal(of: [step("/", 0, 0o755), step("/tmp", 0, 0o1777), step("/tmp/share", them, 0o1777)], runningAs: me)
        #expect(refusal?.hasPrefix("/tmp/share can be changed by") == true, "\(refusal ?? "nil")")
        #expect(refusal?.contains("owner uid 1001, mode 1777") == true, "\(refusal ?? "nil")")
    }

    /// Every mode of a folder of the user's own: refused exactly when group or others may write
    /// and it is not sticky; the same for root's.
    @Test func writableByOthersAndNotStickyIsRefusedForEveryMode() {
        for mode in mode_t(0)...0o1777 {
            for owner in [me, 0] {
                let refused = DirectoryPath.refusal(of: [step("/srv/media", owner, mode)], runningAs: me) != nil
                let expected = mode & 0o022 != 0 && mode & 0o1000 == 0
                #expect(refused == expected, "owner \(owner), mode \(String(mode, radix: 8))")
            }
            #expect(DirectoryPath.refusal(of: [step("/srv/media", them, mode)], runningAs: me) != nil)
        }
    }

    /// Under umask 002 (pam_umask with user private groups, Ubuntu's default) every folder the
    /// user makes is group-writable, `~/Videos` too: its group being the user's private group,
    /// nobody else can write, and the way is the user's. A shared group's write bit still
    /// refuses it, and so does others'. A name of another user's in such a folder cannot be
    /// renamed by them, who may not write there; in a family group's folder it can.
    @Test func aFolderWritableByTheUsersPrivateGroupIsTheUsers() {
        let mine: gid_t = 1000, family: gid_t = 100
        func videos(_ mode: mode_t, _ group: gid_t) -> [DirectoryPath.Step] {
            [step("/", 0, 0o755), DirectoryPath.Step(path: "/home/me/Videos", owner: me, mode: S_IFDIR | mode, group: group)]
        }
        let isPrivate = { (group: gid_t) in group == mine }
        #expect(DirectoryPath.refusal(of: videos(0o775, mine), runningAs: me, isPrivateGroup: isPrivate) == nil)
        #expect(DirectoryPath.refusal(of: videos(0o775, family), runningAs: me, isPrivateGroup: isPrivate) != nil)
        #expect(DirectoryPath.refusal(of: videos(0o777, mine), runningAs: me, isPrivateGroup: isPrivate) != nil)
        // Unknown, the group is not taken for private.
        #expect(DirectoryPath.refusal(of: videos(0o775, mine), runningAs: me) != nil)
        func name(in group: gid_t) -> DirectoryPath.Step {
            DirectoryPath.Step(path: "/home/me/Videos/VODApp", owner: them, mode: S_IFDIR | 0o775, group: group)
        }
        #expect(DirectoryPath.refusal(ofNames: [name(in: mine)], runningAs: me, isPrivateGroup: isPrivate) == nil)
        #expect(DirectoryPath.refusal(ofNames: [name(in: family)], runningAs: me, isPrivateGroup: isPrivate) != nil)
    }

    /// On FAT or exFAT every folder shows the mount's mode: only the owner is asked.
    @Test func withoutPermissionsOnlyTheOwnerCounts() {
        let usb = [step("/", 0, 0o755), step("/media/me/STICK", me, 0o777)]
        #expect(DirectoryPath.refusal(of: usb, runningAs: me) != nil)
        #expect(DirectoryPath.refusal(of: usb, runningAs: me) { $0.path != "/media/me/STICK" } == nil)
    }

    /// The way to a real folder: every folder a name is looked up in, links followed one at a
    /// time, up to the folder that holds it.
    @Test func theStepsAreEveryFolderLookedInOnTheWay() throws {
        let base = NSTemporaryDirectory() + "/vodapp-path-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: base + "/share/real", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/home/Videos", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let resolvedBase = try #require(realpath(base, nil).map { pointer in defer { free(pointer) }; return String(cString: pointer) })
        // The user's shortcut into a share, where another user put a link to the library.
        try FileManager.default.createSymbolicLink(atPath: base + "/home/shortcut", withDestinationPath: resolvedBase + "/share/vids")
        try FileManager.default.createSymbolicLink(atPath: base + "/share/vids", withDestinationPath: "../home/Videos")
        let steps = try #require(DirectoryPath.steps(to: resolvedBase + "/home/shortcut")).map(\.path)
        #expect(steps.first == "/")
        #expect(steps.contains(resolvedBase + "/home"), "\(steps)")
        #expect(steps.contains(resolvedBase + "/share"), "the share behind the user's link: \(steps)")
        #expect(!steps.contains(resolvedBase + "/home/Videos"), "DIR itself is no step: \(steps)")
        #expect(DirectoryPath.steps(to: resolvedBase + "/nowhere/DIR") == nil)
    }

    @Test func componentsKeepDotDotForAfterTheLinks() {
        #expect(DirectoryPath.components("/a/./b/../c/") == ["a", "b", "..", "c"])
    }

    /// A name in a folder others may write in is its owner's to replace: another user's name
    /// there is a refusal, the user's own or root's is not, and in a folder only its owner writes,
    /// nobody else's name matters. Every mode of the holding folder, for each owner of the name.
    @Test func aNameAnotherUserOwnsInAFolderOthersWriteInIsARefusal() {
        for mode in mode_t(0)...0o7777 {
            let othersWrite = mode & 0o022 != 0
            #expect((DirectoryPath.refusal(ofNames: [step("/share/kids", them, mode)], runningAs: me) != nil) == othersWrite, "\(String(mode, radix: 8))")
            #expect(DirectoryPath.refusal(ofNames: [step("/share/kids", me, mode)], runningAs: me) == nil)
            #expect(DirectoryPath.refusal(ofNames: [step("/share/kids", 0, mode)], runningAs: me) == nil)
        }
        let refusal = DirectoryPath.refusal(ofNames: [step("/fam/kids", them, 0o1775)], runningAs: me)
        #expect(refusal?.hasPrefix("/fam/kids is ") == true && refusal?.contains("in a folder others may write in") == true, "\(refusal ?? "")")
        // On FAT or exFAT the modes are the mount's, and say nothing.
        #expect(DirectoryPath.refusal(ofNames: [step("/media/me/STICK/x", them, 0o777)], runningAs: me) { _ in false } == nil)
    }
}
