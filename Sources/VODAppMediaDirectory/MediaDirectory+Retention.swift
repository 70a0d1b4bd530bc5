import Foundation
import SystemPackage
import VODAppBase

/// What retention asks of DIR: whether a file is still the one vodapp placed, and room.
extension MediaDirectory {
    /// A file directly in DIR, as retention sees it.
    package struct PlacedFile: Sendable {
        package let path: String
        package let bytes: Int64
        /// Its modification time: when vodapp wrote it (a file written since is not vodapp's).
        package let modified: Date
        /// What it was when it was checked, for `remove` to see it is still that file.
        let identity: String
        /// The digest of its bytes when vodapp placed it.
        let fingerprint: String
    }

    /// The file named `name` in DIR if, as far as its metadata tells, it is still the one vodapp
    /// placed there at `placedAt`: not hidden, a regular file of one link (not a link planted in
    /// its place), of the size it was placed with, not written since (a file edited or touched
    /// after it was placed has a later modification time, whatever its size), and the same file:
    /// the device and inode recorded when it was placed (`fileID`). A file moved or copied to the
    /// name keeps its own times, and may have the size, but not the inode. Where the file system
    /// numbers inodes afresh at each mount (exFAT), the status-change time stands in for it: Linux
    /// sets it on the rename that brought a file to the name.
    ///
    /// A record without the `fingerprint` of the bytes placed claims no file: vodapp did not
    /// place it (a file found at the name, `alreadyPresent`, perhaps the user's), or cannot prove
    /// it did. The bytes themselves are checked by `remove`, for the files it removes only:
    /// reading every file each time would read all of DIR.
    ///
    /// Only the name counts, not the record's whole path: DIR may be reached through a symbolic
    /// link, moved or copied, and its files with it.
    package func placedFile(named name: String, bytes: Int64, placedAt: Date, fileID: String?,
                            fingerprint: String?) -> PlacedFile? {
        guard let fingerprint, !name.isEmpty, !name.hasPrefix("."), !name.contains("/") else { return nil }
        let path = self.path + "/" + name
        guard let info = try? Stat(FilePath(path), followTargetSymlink: false),
              info.type == .regular, info.linkCount == 1, Int64(info.size) == bytes else { return nil }
        let modified = Self.date(info.st_mtim)
        // The record is written after the file is placed (its link and the temporary name's
        // unlink are its last status changes); a second allows for the store's millisecond
        // dates, and no replacement comes that soon.
        let latest = placedAt.addingTimeInterval(1)
        guard modified <= latest else { return nil }
        guard fileID == Self.fileID(info.rawValue) || Self.date(info.st_ctim) <= latest else { return nil }
        return PlacedFile(path: path, bytes: bytes, modified: modified, identity: Self.fileID(info.rawValue), fingerprint: fingerprint)
    }

    /// What became of a file retention meant to remove.
    package enum Removal: Equatable {
        case removed
        /// It is not the file vodapp placed (its bytes changed, or another file took its place
        /// since it was checked): kept, under its name.
        case kept(String)
        case failed(String)
    }

    /// Removes a file `placedFile` returned, if it is still that file, bytes and all.
    ///
    /// Checking at the name and then unlinking the name would remove whatever a user wrote there
    /// in between (`cat mine > name` opens the same inode). So the file is first renamed out of
    /// the way, atomically: a write that opens the name from then on makes a file of its own,
    /// which is not touched. The renamed file is checked through one descriptor (the same inode,
    /// size and time, and every byte against the fingerprint), and unlinked only if it passes;
    /// otherwise it goes back to its name.
    package func remove(_ file: PlacedFile) -> Removal {
        let name = (file.path as NSString).lastPathComponent
        let aside = path + "/" + Self.asidePrefix + name
        guard name.utf8.count + Self.asidePrefix.utf8.count <= 255 else { return .failed("its name is too long to set it aside") }
        let setAside = Self.renameWithoutReplacing(file.path, to: aside)
        guard setAside == 0 else { return setAside == ENOENT ? .removed : .failed(Errno(rawValue: setAside).description) }
        if let changed = change(in: aside, from: file) {
            // Back under its name; if a new file has taken the name meanwhile, beside it.
            if Self.renameWithoutReplacing(aside, to: file.path) != 0 {
                let beside = path + "/(kept by vodapp) " + name
                if Self.renameWithoutReplacing(aside, to: beside) != 0 { return .failed("\(changed); it is at \(aside)") }
            }
            return .kept(changed)
        }
        // The very file checked, still at the aside name: another renamed onto it meanwhile is
        // not unlinked (a moment remains between this look and the unlink, which no call closes).
        guard (try? Stat(FilePath(aside), followTargetSymlink: false)).map({ Self.fileID($0.rawValue) }) == file.identity else {
            return .failed("another file took its place while it was checked; \(aside) is left as it is")
        }
        return unlink(aside) == 0 ? .removed : .failed(Errno(rawValue: errno).description)
    }

    /// What a file set aside for removal is named in DIR, before its own name: hidden, and its
    /// name kept whole, so that one a crash left aside goes back (`restoreSetAside`).
    static let asidePrefix = ".vodapp-removing-"

    /// Puts back under their names the files a crash left set aside (between `remove`'s rename and
    /// its unlink or restore): never removed unchecked, and never over a file that took the name.
    package func restoreSetAside() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where name.hasPrefix(Self.asidePrefix) {
            // Only what vodapp could have set aside: a regular file, under a name of its own
            // (not hidden, a name vodapp gives an item).
            let original = String(name.dropFirst(Self.asidePrefix.count))
            var info = stat()
            guard !original.isEmpty, !original.hasPrefix("."), MediaFileName.key(of: original) != nil,
                  lstat(path + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            _ = Self.renameWithoutReplacing(path + "/" + name, to: path + "/" + original)
        }
    }

    /// How the file at `path` differs from what `file` was checked to be, or nil when it does not.
    private func change(in path: String, from file: PlacedFile) -> String? {
        Self.examining(path) { descriptor, info -> String? in
            guard (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1 else { return "it is no longer a file of its own" }
            guard Self.fileID(info) == file.identity, Int64(info.st_size) == file.bytes, Self.date(info.st_mtim) == file.modified else {
                return "it changed since it was checked"
            }
            guard FileFingerprint.of(descriptor) == file.fingerprint else { return "its bytes are not those vodapp placed" }
            return nil
        } ?? "it cannot be read"
    }

    /// A partial body (or an HLS item's folder of segments) kept in the work area.
    package struct KeptPartial: Sendable {
        package let key: String
        package let paths: [String]
        package let bytes: Int64
        /// When it was last written.
        package let modified: Date
    }

    /// What the work area keeps for `key`, if anything: its partial body and its segment folder.
    package func keptPartial(key: String) -> KeptPartial? {
        var paths: [String] = []
        var bytes: Int64 = 0
        var modified = Date.distantPast
        func count(_ info: Stat) {
            bytes += Int64(info.size)
            modified = max(modified, Self.date(info.st_mtim))
        }
        // Only files of one link count: a hard link planted at the name is not vodapp's bytes, and
        // removing that name would free nothing.
        let body = temporaryPath(key: key)
        if let info = try? Stat(FilePath(body), followTargetSymlink: false), info.type == .regular, info.linkCount == 1 {
            paths.append(body)
            count(info)
        }
        let folder = segmentFolder(key: key)
        if let info = try? Stat(FilePath(folder), followTargetSymlink: false), info.type == .directory {
            paths.append(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                if let info = try? Stat(FilePath(folder + "/" + name), followTargetSymlink: false), info.type == .regular,
                   info.linkCount == 1 {
                    count(info)
                }
            }
        }
        return paths.isEmpty ? nil : KeptPartial(key: key, paths: paths, bytes: bytes, modified: modified)
    }

    /// Removes what `keptPartial` found: the body, and the segment folder with the files in it
    /// (links, never their targets; nothing deeper, see `SafeFile.removeFolder`).
    package func remove(_ partial: KeptPartial) -> String? {
        for path in partial.paths {
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                SafeFile.removeFolder(path)
                if lstat(path, &info) == 0 { return "\(path) holds what is not vodapp's, and stays" }
            } else if unlink(path) != 0, errno != ENOENT {
                return Errno(rawValue: errno).description
            }
        }
        return nil
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
