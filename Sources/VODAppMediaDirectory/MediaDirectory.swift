import CFileShims
import Foundation
import SystemPackage
import VODAppBase
import VODAppModel
import VODAppPayload

/// DIR on disk: where finished media is placed, and the hidden work area beside it.
///
/// Every path built here comes from a validated key (`[A-Za-z0-9_-]{1,128}`), a title made safe
/// (`MediaFileName`: no `/`, no leading dot) and an extension checked to be alphanumeric, so
/// nothing outside DIR can be named.
package struct MediaDirectory: Sendable {
    package let path: String
    /// The key of DIR's store, under which the files placed are fingerprinted and checked
    /// (`FileFingerprint`); nil, where the store could not be read, for SHA-256, and then a keyed
    /// fingerprint never matches.
    package var fingerprintKey: FingerprintKey?

    package init(path: String) {
        self.path = path
    }

    /// Unfinished bodies live here, on the same file system as DIR so that placing is a rename,
    /// and stay here when cut, to be resumed.
    package var workPath: String { path + "/.vodapp/partial" }

    /// The lock file: whoever holds a key's byte of it fetches the item.
    package var lockPath: String { path + "/.vodapp/locks" }

    package func path(of name: MediaFileName) -> String {
        path + "/" + name.value
    }

    /// The files in DIR by the key they belong to, read once: a file is found by its key, never
    /// by the name today's title would give it, so a changed title renames and fetches nothing.
    package struct Index {
        /// Names by key, each taken apart once, when DIR was read.
        fileprivate var names: [String: [(name: String, shape: MediaFileName.Shape)]] = [:]
        fileprivate let directory: String

        /// The path of the item's file, if DIR has one; with two, the first in name order.
        package func file(for key: String, urlExtension: String?) -> String? {
            names[key]?.filter { $0.shape.belongs(withURLExtension: urlExtension) }.map(\.name).min()
                .map { directory + "/" + $0 }
        }
    }

    package func index() -> Index {
        var index = Index(directory: path)
        forEachEntry { name, _ in
            // Hidden names are never vodapp's media: the work area, a user's dot files. Every
            // name that carries a key is kept; `Index.file` decides which extensions count.
            guard !name.hasPrefix("."), let shape = MediaFileName.shape(of: name) else { return }
            index.names[shape.key, default: []].append((name, shape))
        }
        return index
    }

    /// The names of the regular files directly in DIR, from one read of it rather than a
    /// `stat` per name.
    package func regularFiles() -> Set<String> {
        var files: Set<String> = []
        forEachEntry { name, type in
            var info = stat()
            // Some file systems do not give the type in the entry: then it is asked for.
            let regular = type == UInt8(DT_UNKNOWN) ? lstat(path + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
                                                    : type == UInt8(DT_REG)
            if regular { files.insert(name) }
        }
        return files
    }

    /// Calls `body` with each entry's name and `d_type`, `.` and `..` included.
    private func forEachEntry(_ body: (String, UInt8) -> Void) {
        guard let stream = opendir(path) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            body(name, entry.pointee.d_type)
        }
    }

    /// The same name on every run, so that a later delivery finds what an earlier one was cut
    /// off from; only the holder of the key's lock touches it.
    package func temporaryPath(key: String) -> String {
        workPath + "/" + Self.workName(key, ".part")
    }

    /// Where a subtitle file of an item's is written before it takes its name beside the item's.
    package func subtitleTemporaryPath(key: String, language: String) -> String {
        workPath + "/" + Self.workName(key, "." + language + ".vtt.part")
    }

    /// Where an HLS item's playlist, keys and segments are kept until they are joined: a folder
    /// of its own, under the same name on every run, so that a cut item resumes.
    package func segmentFolder(key: String) -> String {
        workPath + "/" + Self.workName(key, ".hls")
    }

    /// A key's name in the work area. A key is checked against the payload's rule before it
    /// becomes a name, wherever it came from (a payload, a store someone else may have written):
    /// one that fails it names a file no key can, so `../x` reaches nothing outside the work area.
    static func workName(_ key: String, _ suffix: String) -> String {
        ItemKey.isValid(key) ? workStem(key) + suffix : ".invalid-key" + suffix
    }

    /// The stem of a key's names in the work area. exFAT and FAT (USB sticks, SD cards) ignore
    /// case, so `ABC.part` would be `abc.part`, and two items would write, and delete, one file
    /// (exfat-fuse crashed on it). A key without capitals is its own stem; a key with capitals is
    /// written in lower case, then `.`, then which of its letters were capitals, one hex digit per
    /// four letters (`ABC` → `abc.7`). That is one-to-one whatever the file system: two keys
    /// with the same lower case and the same capitals are the same key, and no key has a `.`, so
    /// no key's own stem can be another's. (A hash of the key could be forged by a key chosen to
    /// look like it in lower case.)
    package static func workStem(_ key: String) -> String {
        let letters = Array(key.utf8)
        guard letters.contains(where: { (65...90).contains($0) }) else { return key }
        var capitals = ""
        for start in stride(from: 0, to: letters.count, by: 4) {
            var nibble = 0
            for offset in 0..<4 where start + offset < letters.count && (65...90).contains(letters[start + offset]) {
                nibble |= 1 << offset
            }
            capitals += String(nibble, radix: 16)
        }
        return key.lowercased() + "." + capitals
    }

    /// The size of a kept partial body, if there is one. Anything else at its name (a FIFO, a
    /// link, a hard link to a file outside DIR) is removed, never resumed: only the name goes.
    package func partialBytes(key: String) -> Int64? {
        let path = temporaryPath(key: key)
        switch SafeFile.inspect(path) {
        case .absent: return nil
        case .file(let bytes): return bytes
        case .unsafe:
            SafeFile.remove(path)
            return nil
        }
    }

    /// Whether DIR has vodapp's hidden work area (and so, likely, a store).
    /// - Throws: when `.vodapp` or its `partial` is there but is not a directory of DIR's own (a
    ///   symbolic link could send partial bodies, locks and the store anywhere).
    package func checkWorkArea() throws(MediaDirectoryError) -> Bool {
        var info = stat()
        for (index, directory) in [path + "/.vodapp", workPath].enumerated() {
            guard lstat(directory, &info) == 0 else {
                if errno == ENOENT || errno == ENOTDIR, index == 0 { return false }
                // `.vodapp` without its `partial`: still a work area, whose owner counts.
                if errno == ENOENT { break }
                throw .directoryUnusable(path: path, reason: "\(directory): \(Errno(rawValue: errno).description)")
            }
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                let what = (info.st_mode & S_IFMT) == S_IFLNK ? "a symbolic link" : "not a directory"
                throw .directoryUnusable(path: path, reason: "\(directory) is \(what); vodapp's work area must be a directory inside DIR")
            }
        }
        try checkOwnership()
        return true
    }

    /// Refuses a work area that is not the running user's own (`WorkAreaOwnership`): nothing is
    /// read from it or removed for it.
    func checkOwnership() throws(MediaDirectoryError) {
        if let refusal = WorkAreaOwnership.refusal(ofWorkArea: path + "/.vodapp") {
            throw .directoryUnusable(path: path, reason: refusal)
        }
    }

    package enum Presence {
        case absent
        case file(bytes: Int64)
        case other
    }

    package func presence(at path: String) -> Presence {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .absent }
        return (info.st_mode & S_IFMT) == S_IFREG ? .file(bytes: Int64(info.st_size)) : .other
    }

    /// Creates DIR and its work area, and checks that both can be written.
    package func prepare() throws(MediaDirectoryError) {
        // mkdir -p by hand: the system's own reason ("Read-only file system", "Permission
        // denied") is the one-line error a user should see, not Foundation's paraphrase of it.
        var prefix = ""
        for component in workPath.split(separator: "/") {
            prefix += "/" + component
            guard mkdir(prefix, 0o755) != 0 else { continue }
            let failure = errno
            var info = stat()
            // DIR itself may be a symbolic link (the user's choice); the work area inside it may
            // not, or partial bodies could be steered to a file outside DIR.
            let inside = prefix.count > path.count
            let found = inside ? lstat(prefix, &info) : stat(prefix, &info)
            if failure == EEXIST, found == 0, (info.st_mode & S_IFMT) == S_IFDIR { continue }
            // A work area someone else owns is said so, with the fix, rather than as the
            // "Permission denied" it causes.
            if inside { try checkOwnership() }
            throw .directoryUnusable(path: path, reason: failure == EEXIST ? "\(prefix) is not a directory"
                                                                        : Self.failure(failure, at: prefix, in: path))
        }
        for directory in [path, workPath] where access(directory, W_OK | X_OK) != 0 {
            let failure = errno
            try checkOwnership()
            throw .directoryUnusable(path: path, reason: Self.failure(failure, at: directory, in: path))
        }
        try checkOwnership()
        restrictWorkArea()
    }

    /// Closes the work area to every other user (0700): its lock file, store and spool are the
    /// running user's alone. Open to others, another user could hold a lock in `locks` that
    /// reads as a delivery running since 1970 (retention and --sync then removed nothing), hold
    /// every item's lock (nothing was fetched, "another delivery is fetching it"), or lock the
    /// store's shared memory (every delivery ran its whole budget and recorded nothing): the
    /// tenth attacker trial. Best effort: a work area that cannot be changed is used as it is.
    package func restrictWorkArea() {
        var info = stat()
        let area = path + "/.vodapp"
        guard lstat(area, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == geteuid(),
              info.st_mode & 0o077 != 0 else { return }
        _ = chmod(area, 0o700)
    }

    /// The system's reason, naming the folder when it is not DIR itself (or one above it).
    private static func failure(_ code: Int32, at folder: String, in path: String) -> String {
        let reason = Errno(rawValue: code).description
        return folder.count > path.count ? "\(folder): \(reason)" : reason
    }

    /// DIR, held open: what retention removes is found through it, by the name vodapp gave.
    package func folder() throws(MediaDirectoryError) -> Folder {
        do {
            return try Folder.open(path)
        } catch {
            throw .directoryUnusable(path: path, reason: error.description)
        }
    }

    /// DIR, its work area and `partial`, held while a delivery fetches into them (`FolderHold`).
    package func holdWorkFolders() throws(SafeFile.Failure) -> FolderHold {
        try FolderHold(workAreaOf: path, below: ["partial"])
    }

    /// The work area's `partial` folder, reached from DIR without following a link.
    package func workFolder() throws(SafeFile.Failure) -> Folder {
        try Folder.openWorkArea(in: path, below: ["partial"])
    }

    /// What a placed file was as vodapp placed it: its `dev:ino` and the fingerprint of its bytes,
    /// read from the temporary file before it took its name, so that no write at the name after
    /// the placement can become part of what vodapp calls its own.
    package struct PlacedIdentity: Sendable, Equatable {
        package let fileID: String
        package let fingerprint: String
    }

    package enum Placement {
        /// With what it was, when the temporary file could be read (else retention never takes it).
        case placed(PlacedIdentity?)
        case alreadyThere
        case failed(String)
        /// Taken by another item's file whose name differs only in case, on a file system that
        /// ignores case: the same next time, until a title or key changes.
        case takenIgnoringCase(String)
    }

    /// Moves a finished temporary file to its final name without ever replacing a file that is
    /// already there: `link` fails with EEXIST where `rename` would overwrite.
    ///
    /// Where `link` is refused (exFAT and FAT, the file systems of USB sticks and SD cards, answer
    /// EPERM), `renameat2` with RENAME_NOREPLACE does the same in one step; where that is refused
    /// too (exfat-fuse answers EINVAL), a `rename` after checking the name is free. The caller
    /// holds the item's lock, so no other vodapp can take the name in between; only a person could.
    ///
    /// The file is read once, from the page cache, for its fingerprint (`FileFingerprint`), on the
    /// syncer thread that made it durable: not on the transfer thread, where every other transfer
    /// would wait for it.
    package func place(_ temporary: String, at final: String) -> Placement {
        // The temporary's folder is reached once (from DIR, not through a link) and held: what
        // is examined, linked and removed is one file in it, whatever happens to its path.
        let work: Folder, name: String
        do {
            (work, name) = try SafeFile.holder(of: temporary)
        } catch {
            return .failed(error.description)
        }
        defer { work.removeFile(name) }
        // The same inode after the link or the rename: its identity and bytes now are the file's.
        let identity = Self.identity(of: name, in: work, key: fingerprintKey)
        // Through the folders' descriptors: a `.vodapp` swapped for a link while the item
        // downloaded cannot put a file from outside DIR at the item's name.
        let linked: Int32
        do {
            let (destination, newName) = try SafeFile.holder(of: final)
            linked = SafeFile.link(name, in: work, to: newName, in: destination)
        } catch {
            linked = error.errno
        }
        if linked == 0 { return .placed(identity) }
        if linked == EEXIST { return taken(final) }
        guard [EPERM, ENOTSUP, EOPNOTSUPP, ENOSYS, EMLINK].contains(linked) else { return .failed(Errno(rawValue: linked).description) }
        switch Self.renameWithoutReplacing(temporary, to: final) {
        case 0: return .placed(identity)
        case EEXIST: return taken(final)
        case let code: return .failed(Errno(rawValue: code).description)
        }
    }

    /// Renames `from` to `to` unless `to` exists: `renameat2` with RENAME_NOREPLACE, or where the
    /// file system cannot promise that in one call (exfat-fuse answers EINVAL), a look first and a
    /// `rename`. Returns 0, EEXIST when `to` is taken, or the errno that stopped it.
    static func renameWithoutReplacing(_ from: String, to: String) -> Int32 {
        SafeFile.renameWithoutReplacing(from, to: to)
    }

    /// The identity and fingerprint of the regular file `name` in `folder`, through one
    /// descriptor: its bytes are read under `key`.
    private static func identity(of name: String, in folder: Folder, key: FingerprintKey?) -> PlacedIdentity? {
        folder.examining(name) { descriptor, info in
            guard (info.st_mode & S_IFMT) == S_IFREG,
                  let fingerprint = FileFingerprint.of(FileDescriptor(rawValue: descriptor), key: key) else { return nil }
            return PlacedIdentity(fileID: fileID(info), fingerprint: fingerprint)
        } ?? nil
    }

    /// Opens `path` without following a link and hands `body` the descriptor and its status, so
    /// that what is checked and what is read are one file; nil when it cannot be opened.
    static func examining<T>(_ path: String, _ body: (FileDescriptor, stat) -> T) -> T? {
        guard let (folder, name) = try? SafeFile.holder(of: path) else { return nil }
        return folder.examining(name) { descriptor, info in body(FileDescriptor(rawValue: descriptor), info) }
    }

    /// A file's `dev:ino`, as the store keeps it.
    static func fileID(_ info: stat) -> String {
        "\(info.st_dev):\(info.st_ino)"
    }

    /// What a name found taken means: the item's own file, or, on a file system that ignores case
    /// (exFAT, FAT), another item's whose name differs only in case, which is not this item's.
    private func taken(_ final: String) -> Placement {
        let name = String(final.dropFirst(path.count + 1))
        let folded = name.lowercased()
        var exact = false
        var other: String?
        forEachEntry { entry, _ in
            if entry == name {
                exact = true
            } else if other == nil, entry.lowercased() == folded {
                other = entry
            }
        }
        if exact { return .alreadyThere }
        return .takenIgnoringCase("the file system ignores case, and \(other ?? "a name differing only in case") is there (another item's, whose key or title differs only in case)")
    }

    /// Makes the new names durable: one fsync of DIR after all renames.
    package func sync() {
        SafeFile.syncDirectory(path)
    }
}
