import Foundation
import SystemPackage

/// What retention asks of DIR: whether a file is still the one vodapp placed, and room.
extension MediaDirectory {
    /// A file directly in DIR, as retention sees it.
    package struct PlacedFile: Sendable {
        package let path: String
        package let bytes: Int64
        /// Its modification time: when vodapp wrote it (a file written since is not vodapp's).
        package let modified: Date
    }

    /// The file named `name` in DIR if it is still the one vodapp placed there at `placedAt`:
    /// not hidden, a regular file of one link (not a link planted in its place), of the size it
    /// was placed with, not written since (a file edited or touched after it was placed has a
    /// later modification time, whatever its size), and the same file: the device and inode
    /// recorded when it was placed (`fileID`). A file moved or copied to the name keeps its own
    /// times, and may have the size, but not the inode. Where no identity was recorded, or the
    /// file system numbers inodes afresh at each mount (exFAT), the status-change time stands in
    /// for it: Linux sets it on the rename that brought a file to the name. Last, its bytes: a
    /// file written over in place keeps the inode, and `cp -p` or `touch -d` can give it the
    /// size and an old time, but not the `fingerprint` taken when it was placed.
    ///
    /// Only the name counts, not the record's whole path: DIR may be reached through a symbolic
    /// link, moved or copied, and its files with it.
    package func placedFile(named name: String, bytes: Int64, placedAt: Date, fileID: String?,
                            fingerprint: String?) -> PlacedFile? {
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/") else { return nil }
        let path = self.path + "/" + name
        guard let info = try? Stat(FilePath(path), followTargetSymlink: false),
              info.type == .regular, info.linkCount == 1, Int64(info.size) == bytes else { return nil }
        let modified = Self.date(info.st_mtim)
        // The record is written after the file is placed (its link and the temporary name's
        // unlink are its last status changes); a second allows for the store's millisecond
        // dates, and no replacement comes that soon.
        let latest = placedAt.addingTimeInterval(1)
        guard modified <= latest else { return nil }
        guard fileID == Self.fileID(of: info) || Self.date(info.st_ctim) <= latest else { return nil }
        if let fingerprint, FileFingerprint.of(path: path) != fingerprint { return nil }
        return PlacedFile(path: path, bytes: bytes, modified: modified)
    }

    /// `dev:ino` of the file at `path`, not following a link.
    package static func fileID(at path: String) -> String? {
        (try? Stat(FilePath(path), followTargetSymlink: false)).map(fileID(of:))
    }

    private static func fileID(of info: Stat) -> String {
        "\(info.rawValue.st_dev):\(info.rawValue.st_ino)"
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

    /// Removes what `keptPartial` found (a folder with what is in it: links, never their targets).
    package func remove(_ partial: KeptPartial) -> String? {
        for path in partial.paths {
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                return "\(error.localizedDescription)"
            }
        }
        return nil
    }

    private static func date(_ time: timespec) -> Date {
        Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }

    /// Removes a file `placedFile` returned. Returns why not, when it could not.
    package func remove(_ file: PlacedFile) -> String? {
        unlink(file.path) == 0 || errno == ENOENT ? nil : Errno(rawValue: errno).description
    }

    /// The bytes an unprivileged user may still write on DIR's file system.
    package func freeBytes() -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
