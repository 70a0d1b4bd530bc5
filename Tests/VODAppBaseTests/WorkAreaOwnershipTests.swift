import Foundation
import Testing
import VODAppBase

/// Whose work area it is, as pure values: every owner and every mode bit that matters.
@Suite struct WorkAreaOwnershipTests {
    private func entry(owner: uid_t, mode: mode_t) -> WorkAreaOwnership.Entry {
        WorkAreaOwnership.Entry(path: "/media/.vodapp", owner: owner, mode: S_IFDIR | mode)
    }

    /// Every mode from 000 to 777: refused exactly when the group or others may write, and only
    /// where the file system keeps modes.
    @Test func theUsersOwnIsRefusedExactlyWhenOthersMayWrite() {
        for mode in mode_t(0)...0o777 {
            let refusal = WorkAreaOwnership.refusal(of: entry(owner: 1000, mode: mode), runningAs: 1000, honoursPermissions: true)
            #expect((refusal != nil) == (mode & 0o022 != 0), "mode \(String(mode, radix: 8))")
            #expect(WorkAreaOwnership.refusal(of: entry(owner: 1000, mode: mode), runningAs: 1000, honoursPermissions: false) == nil)
        }
    }

    /// Another user's is refused whatever its mode, on every file system.
    @Test(arguments: [mode_t(0o700), 0o755, 0o777], [true, false])
    func anotherUsersIsAlwaysRefused(mode: mode_t, honours: Bool) {
        let refusal = WorkAreaOwnership.refusal(of: entry(owner: 1001, mode: mode), runningAs: 1000, honoursPermissions: honours)
        #expect(refusal?.contains("/media/.vodapp belongs to") == true && refusal?.contains("uid 1001") == true
                && refusal?.contains("sudo chown -R") == true && refusal?.contains("use a DIR of your own (--dir)") == true, "\(refusal ?? "nil")")
        // Root is another user too: a work area of root's is not a user's to trust, nor a
        // user's root's (git's safe.directory does the same).
        #expect(WorkAreaOwnership.refusal(of: entry(owner: 1000, mode: mode), runningAs: 0, honoursPermissions: honours) != nil)
    }

    @Test(arguments: [(mode_t(0o775), "its group (mode 775)"), (0o757, "others (mode 757)"), (0o777, "its group and others (mode 777)")])
    func theMessageSaysWhoMayWriteAndTheFix(mode: mode_t, who: String) {
        let refusal = WorkAreaOwnership.refusal(of: entry(owner: 7, mode: mode), runningAs: 7, honoursPermissions: true)
        #expect(refusal == "/media/.vodapp is writable by \(who): vodapp does not act on a work area another user could have "
                + "written; 'chmod -R go-w /media/.vodapp' if nobody else did, otherwise move it aside")
    }

    /// On a real folder: the running user's own, 0755, passes; opened to all, or holding a file
    /// others may write, it is refused; absent, it is nobody's yet.
    @Test func aRealWorkAreaAndWhatIsInIt() throws {
        let base = NSTemporaryDirectory() + "/vodapp-ownership-\(UInt32.random(in: 0...UInt32.max))"
        let area = base + "/.vodapp"
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(WorkAreaOwnership.refusal(ofWorkArea: area) == nil)
        try FileManager.default.createDirectory(atPath: area, withIntermediateDirectories: true)
        chmod(area, 0o755)
        #expect(FileManager.default.createFile(atPath: area + "/state.sqlite", contents: Data()))
        chmod(area + "/state.sqlite", 0o644)
        #expect(WorkAreaOwnership.refusal(ofWorkArea: area) == nil)
        chmod(area + "/state.sqlite", 0o666)
        let inside = WorkAreaOwnership.refusal(ofWorkArea: area)
        #expect(inside?.hasPrefix(area + "/state.sqlite is writable by its group and others") == true, "\(inside ?? "nil")")
        // The fix is one command for the whole work area.
        #expect(inside?.contains("'chmod -R go-w \(area)'") == true, "\(inside ?? "nil")")
        chmod(area + "/state.sqlite", 0o644)
        chmod(area, 0o777)
        #expect(WorkAreaOwnership.refusal(ofWorkArea: area)?.hasPrefix(area + " is writable") == true)
    }
}
