import CFileShims
import Foundation
import SystemPackage
import VODAppBase
import VODAppModel
import VODAppPayload

/// What retention asks of DIR: whether a file is still the one vodapp placed, and room.
extension MediaDirectory {
    /// A file directly in DIR, as retention sees it.
    package struct PlacedFile: Sendable {
        /// Its name in DIR, the one vodapp gave it: it is found by this name through DIR's
        /// descriptor, never by a path a record spells.
        package let name: String
        /// For the report and messages.
        package let path: String
        package let bytes: Int64
        /// Its modification time: when vodapp wrote it (a file written since is not vodapp's).
        package let modified: Date
        /// What it was when it was checked, for `remove` to see it is still that file.
        let identity: String
        /// The digest of its bytes when vodapp placed it.
        let fingerprint: String
    }

    /// The file named `name` in DIR (`root`, held open) if, as far as its metadata tells, it is
    /// still the one vodapp placed there at `placedAt`: not hidden, a regular file of one link
    /// (not a link planted in its place), of the size it was placed with, not written since (a
    /// file edited or touched after it was placed has a later modification time, whatever its
    /// size), and the same file: the device and inode recorded when it was placed (`fileID`). A
    /// file moved or copied to the name keeps its own times, and may have the size, but seldom the
    /// inode: ext4 hands a freed inode's number to the next file made (`rm`, then `cp -p` of a
    /// backup, took it in the attacker trial), so the bytes, checked by `remove`, are what finally
    /// tells. Where the file system numbers inodes afresh at each mount (exFAT), the status-change
    /// time stands in for the inode: Linux sets it on the rename that brought a file to the name.
    ///
    /// A record without the `fingerprint` of the bytes placed claims no file: vodapp did not
    /// place it (a file found at the name, `alreadyPresent`, perhaps the user's), or cannot prove
    /// it did. The bytes themselves are checked by `remove`, for the files it removes only:
    /// reading every file each time would read all of DIR.
    ///
    /// Only the name counts, not the record's whole path: DIR may be reached through a symbolic
    /// link, moved or copied, and its files with it.
    package func placedFile(named name: String, in root: Folder, bytes: Int64, placedAt: Date, fileID: String?,
                            fingerprint: String?) -> PlacedFile? {
        guard let fingerprint, Folder.isComponent(name), !name.hasPrefix("."), let info = root.status(name),
              (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1, Int64(info.st_size) == bytes else { return nil }
        let modified = Self.date(info.st_mtim)
        // The record is written after the file is placed (its link and the temporary name's
        // unlink are its last status changes); a second allows for the store's millisecond
        // dates, and no replacement comes that soon.
        let latest = placedAt.addingTimeInterval(1)
        guard modified <= latest else { return nil }
        guard fileID == Self.fileID(info) || Self.date(info.st_ctim) <= latest else { return nil }
        return PlacedFile(name: name, path: path + "/" + name, bytes: bytes, modified: modified, identity: Self.fileID(info),
                          fingerprint: fingerprint)
    }

    /// What became of a file retention meant to remove.
    package enum Removal: Equatable {
        case removed
        /// It is not the file vodapp placed (its bytes changed, or another file took its place
        /// since it was checked): kept, under its name.
        case kept(String)
        case failed(String)
    }

    /// Where files are set aside to be checked before they are removed: a folder of the work
    /// area's, so that the name is kept whole, whatever its length (a prefix added to a long name
    /// went past 255 bytes, and such a file could never be removed), and so that only the
    /// running user can reach it (`WorkAreaOwnership`).
    static let asideFolder = "removing"

    /// Removes a file `placedFile` returned, if it is still that file, bytes and all. Every step
    /// is relative to DIR's descriptor (`root`) and the work area's, and none follows a link.
    ///
    /// Checking at the name and then unlinking the name would remove whatever a user wrote there
    /// in between (`cat mine > name` opens the same inode). So the file is first moved out of
    /// the way, atomically, into the work area: a write that opens the name from then on makes a
    /// file of its own, which is not touched. The moved file is checked through one descriptor
    /// (the same inode, size and time, and every byte against the fingerprint), and unlinked only
    /// if it passes; otherwise it goes back to its name.
    package func remove(_ file: PlacedFile, in root: Folder) -> Removal {
        let aside: Folder
        do {
            aside = try root.ownFolder(".vodapp").makeFolder(Self.asideFolder)
        } catch {
            return .failed("cannot set it aside: \(error)")
        }
        let setAside = root.rename(file.name, to: aside, as: file.name)
        guard setAside == 0 else {
            return setAside == ENOENT ? .removed : .failed("cannot set it aside: \(Errno(rawValue: setAside).description)")
        }
        let removal = aside.examining(file.name) { descriptor, info -> Removal in
            // A read lease is refused while any process has the file open for writing: one that
            // opened it before it was set aside could still write to it while its bytes are read,
            // and a write after they were read would be unlinked with them (the attacker trial
            // wrote 2 ms into the check, and lost its edit). Held, it makes a new open for writing
            // wait until this descriptor is closed, after the unlink.
            let lease = vod_take_read_lease(descriptor)
            if lease == EAGAIN { return .kept("it is open for writing") }
            if let changed = change(of: file, descriptor: descriptor, info: info) { return .kept(changed) }
            // Where there is no lease (FUSE: exFAT), a write while the bytes were read shows in
            // the file's times; one after this look has microseconds to come.
            var after = stat()
            guard lease == 0 || (fstat(descriptor, &after) == 0 && Self.date(after.st_mtim) == Self.date(info.st_mtim)
                                 && Self.date(after.st_ctim) == Self.date(info.st_ctim) && after.st_size == info.st_size) else {
                return .kept("it was written while it was checked")
            }
            // The very file checked, still at the aside name: another renamed onto it meanwhile is
            // not unlinked (a moment remains between this look and the unlink, which no call
            // closes; only a process of the running user's can reach the work area).
            guard aside.status(file.name).map(Self.fileID) == file.identity else {
                return .failed("another file took its place while it was checked; \(aside.path)/\(file.name) is left as it is")
            }
            let code = aside.removeFile(file.name)
            return code == 0 ? .removed : .failed(Errno(rawValue: code).description)
        } ?? .kept("it cannot be read")
        if case .kept(let changed) = removal {
            // Back under its name; if a new file has taken the name meanwhile, beside it.
            if aside.rename(file.name, to: root, as: file.name) != 0 {
                let beside = "(kept by vodapp) " + file.name
                if !Folder.isComponent(beside) || aside.rename(file.name, to: root, as: beside) != 0 {
                    return .failed("\(changed); it is at \(aside.path)/\(file.name)")
                }
            }
        }
        return removal
    }

    /// The name under which an earlier vodapp set a file aside in DIR itself, before its name.
    static let legacyAsidePrefix = ".vodapp-removing-"

    /// Puts back under their names the files a crash left set aside (between `remove`'s rename
    /// and its unlink or restore): never removed unchecked, and never over a file that took the
    /// name. Called at the start of every delivery, whatever its options, so that a file is
    /// hidden only until the next run.
    package func restoreSetAside() {
        guard let root = try? folder() else { return }
        if let aside = try? root.ownFolder(".vodapp").ownFolder(Self.asideFolder) {
            for entry in aside.entries() where Self.mayRestore(entry.name, in: aside) {
                _ = aside.rename(entry.name, to: root, as: entry.name)
            }
        }
        for entry in root.entries() where entry.name.hasPrefix(Self.legacyAsidePrefix) {
            let original = String(entry.name.dropFirst(Self.legacyAsidePrefix.count))
            if Self.mayRestore(original, in: root, at: entry.name) { _ = root.rename(entry.name, to: root, as: original) }
        }
    }

    /// Whether what is at `found` (by default `name`) in `folder` is what vodapp could have set
    /// aside as `name`: a regular file, under a name vodapp gives an item (not hidden).
    private static func mayRestore(_ name: String, in folder: Folder, at found: String? = nil) -> Bool {
        guard Folder.isComponent(name), !name.hasPrefix("."), MediaFileName.key(of: name) != nil,
              let info = folder.status(found ?? name) else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG
    }

    /// How the file set aside, open as `descriptor` with the status `info`, differs from what
    /// `file` was checked to be, or nil when it does not.
    private func change(of file: PlacedFile, descriptor: Int32, info: stat) -> String? {
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1 else { return "it is no longer a file of its own" }
        guard Self.fileID(info) == file.identity, Int64(info.st_size) == file.bytes, Self.date(info.st_mtim) == file.modified else {
            return "it changed since it was checked"
        }
        guard FileFingerprint.matches(FileDescriptor(rawValue: descriptor), file.fingerprint, key: fingerprintKey) else {
            return "its bytes are not those vodapp placed"
        }
        return nil
    }

    /// A partial body (or an HLS item's folder of segments) kept in the work area.
    package struct KeptPartial: Sendable {
        package let key: String
        /// Its names in the work area's `partial` folder.
        package let names: [String]
        package let bytes: Int64
        /// What it takes on the disk: its blocks when more than its bytes (a reservation a
        /// killed delivery left past its end). Removing it frees this much.
        package let diskBytes: Int64
        /// When it was last written.
        package let modified: Date

        /// Where the first of them is, for the report.
        package var path: String
    }

    /// What the work area keeps for `key`, if anything: its partial body and its segment folder.
    /// A key that fails the payload's rule (a record someone else wrote) has nothing.
    package func keptPartial(key: String) -> KeptPartial? {
        guard ItemKey.isValid(key), let work = try? workFolder() else { return nil }
        var names: [String] = []
        var bytes: Int64 = 0
        var modified = Date.distantPast
        var diskBytes: Int64 = 0
        func count(_ info: stat) {
            bytes += Int64(info.st_size)
            diskBytes += max(Int64(info.st_size), Int64(info.st_blocks) * 512)
            modified = max(modified, Self.date(info.st_mtim))
        }
        // Only files of one link count: a hard link planted at the name is not vodapp's bytes, and
        // removing that name would free nothing.
        let body = Self.workName(key, ".part")
        if let info = work.status(body), (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1 {
            names.append(body)
            count(info)
        }
        // The segment folder is listed through its own descriptor: a link at its name is not.
        let segments = Self.workName(key, ".hls")
        if let folder = try? work.folder(segments) {
            names.append(segments)
            for entry in folder.entries() {
                if let info = folder.status(entry.name), (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1 { count(info) }
            }
        }
        guard let first = names.first else { return nil }
        return KeptPartial(key: key, names: names, bytes: bytes, diskBytes: diskBytes, modified: modified, path: work.path + "/" + first)
    }

    /// Removes what `keptPartial` found: the body, and the segment folder with the files in it
    /// (links, never their targets; nothing deeper, see `Folder.removeFolder`), the folder's
    /// files later (`emptyDiscarded(until:)`).
    package func remove(_ partial: KeptPartial) -> String? {
        let work: Folder
        do {
            work = try workFolder()
        } catch {
            return error.description
        }
        for name in partial.names {
            // A segment folder is emptied when a delivery has time (`Folder.discard`).
            switch work.discard(name) {
            case .removed: continue
            case .movedAside(let aside): return "\(work.path)/\(name) holds what is not vodapp's: it was moved to \(aside)"
            case .kept(let why): return why
            }
        }
        return nil
    }

    /// Removes the segment folders given up earlier (`Folder.discard`) until `deadline`.
    /// - Returns: whether none is left.
    @discardableResult
    package func emptyDiscarded(until deadline: ContinuousClock.Instant) -> Bool {
        guard let work = try? workFolder() else { return true }
        return work.emptyDiscarded(until: deadline)
    }

    private static func date(_ time: timespec) -> Date {
        Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }


    /// The bytes an unprivileged user may still write on DIR's file system.
    package func freeBytes() -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
