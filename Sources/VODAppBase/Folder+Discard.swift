import CFileShims
import Foundation

/// Folders of many files removed when there is time for it, not when they stop being needed.
///
/// Removing an HLS item's 20,000 segments takes 3 s on ext4 here: after the deadline, a delivery
/// that gave up such an item (or that placed one) ran past its budget by that much. A folder to
/// remove is moved, in one rename, into a hidden folder beside it (`.discarded`), and emptied
/// later within a deadline: by this delivery when it has time left, by the next one otherwise.
extension Folder {
    /// The hidden folder, in the folder that held them, where discarded folders wait. No key's
    /// work name starts with a dot, so it is never an item's.
    package static let discardedName = ".discarded"

    /// Moves the folder `name` out of the way, to be emptied by `emptyDiscarded(until:)`: a name
    /// freed at once, whatever it held. A link, a file or a mount at the name is dealt with as
    /// `removeFolder` deals with it; a folder that cannot be moved is removed here and now.
    @discardableResult
    package func discard(_ name: String) -> FolderRemoval {
        guard Self.isComponent(name), name != Self.discardedName else { return removeFolder(name) }
        guard let inside = try? folder(name), !inside.isMountPoint, let bin = try? makeFolder(Self.discardedName),
              !bin.isMountPoint else {
            return removeFolder(name)
        }
        // A name of its own: the same key may be discarded again before the first is emptied.
        let binName = name + "-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        guard Self.isComponent(binName), rename(name, to: bin, as: binName) == 0 else { return removeFolder(name) }
        return .removed
    }

    /// Removes the folders `discard` moved aside, a file at a time, until `deadline`; what is left
    /// waits for a later call. Only files go, relative to each folder's descriptor, as in
    /// `removeFiles`: a folder found in a discarded one stays, with its discarded folder.
    /// - Returns: whether nothing discarded is left.
    @discardableResult
    package func emptyDiscarded(until deadline: ContinuousClock.Instant) -> Bool {
        // The user's own, and not a mount: a file system mounted at the name is not vodapp's to
        // empty (fifth attacker trial: a bind mount there lost every file in it).
        guard let bin = try? ownFolder(Self.discardedName) else { return true }
        guard !bin.isMountPoint else { return false }
        var emptied = true
        for entry in bin.entries() {
            guard ContinuousClock.now < deadline else { return false }
            guard let inside = try? bin.folder(entry.name) else {
                bin.removeFile(entry.name)
                continue
            }
            // A mount is never emptied (`discard` does not move one here; one may be made since).
            guard !inside.isMountPoint, inside.removeFiles(until: deadline) else {
                emptied = false
                continue
            }
            if unlinkat(bin.descriptor, entry.name, AT_REMOVEDIR) != 0, errno != ENOENT { emptied = false }
        }
        if emptied { unlinkat(descriptor, Self.discardedName, AT_REMOVEDIR) }
        return emptied
    }
}
