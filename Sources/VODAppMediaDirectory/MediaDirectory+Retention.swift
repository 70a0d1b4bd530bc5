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

    /// The file at `path` if it is still the one vodapp placed there at `placedAt`: directly in
    /// DIR, not hidden, a regular file of one link (not a link planted in its place), of the
    /// size it was placed with, and not written since (a file edited, replaced or touched after
    /// it was placed has a later modification time, whatever its size). Anything else is not
    /// vodapp's to remove.
    package func placedFile(at path: String, bytes: Int64, placedAt: Date) -> PlacedFile? {
        let name = (path as NSString).lastPathComponent
        guard (path as NSString).deletingLastPathComponent == self.path, !name.hasPrefix("."),
              let info = try? Stat(FilePath(path), followTargetSymlink: false),
              info.type == .regular, info.linkCount == 1, Int64(info.size) == bytes else { return nil }
        let time = info.st_mtim
        let modified = Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
        // The record is written after the file is placed; a second allows for the store's
        // millisecond dates, and no replacement comes that soon.
        guard modified <= placedAt.addingTimeInterval(1) else { return nil }
        return PlacedFile(path: path, bytes: bytes, modified: modified)
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
