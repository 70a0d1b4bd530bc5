import NIOConcurrencyHelpers

/// DIR, its work area and folders in it, opened and checked once for a delivery and held while
/// it runs, so that its items do not each walk from DIR again.
///
/// `SafeFile.holder(of:)` finds a name's folder here first, by the path the folder was opened
/// at, and walks from DIR only for a folder no hold has. A walk took a dozen system calls (an
/// open, a status, the owner's and the file system's checks and a close for each folder), and an
/// item made four of them: a fifth of a small item's cost.
///
/// Nothing a walk checks is given up. The hold opens DIR (following a link there, the user's
/// choice), then the work area and each folder below it without following a link, and refuses a
/// work folder that is not the running user's own (`Folder.openWorkArea`), exactly as a walk
/// does. From then on every item uses those descriptors. A `.vodapp` swapped for another folder
/// while the delivery runs is not followed: the files go on into the folder that was checked,
/// where a walk after the swap would refuse the impostor. Neither writes outside DIR.
package final class FolderHold: Sendable {
    private let held: [(path: String, folder: Folder)]

    /// Every hold's folders by the path they were opened at; the last hold taken of a path wins
    /// (deliveries to one DIR in one listener each hold their own).
    private static let registry = NIOLockedValueBox<[String: [Folder]]>([:])

    /// Holds `root`, its work area and `components` below the work area, each inside the one
    /// before.
    package init(workAreaOf root: String, below components: [String] = []) throws(SafeFile.Failure) {
        var path = root + "/" + SafeFile.workAreaName
        var folders = [(path: root, folder: try Folder.open(root))]
        folders.append((path, try folders[0].folder.ownFolder(SafeFile.workAreaName)))
        for name in components {
            path += "/" + name
            folders.append((path, try folders[folders.count - 1].folder.ownFolder(name)))
        }
        held = folders
        Self.registry.withLockedValue { registry in
            for (path, folder) in folders { registry[path, default: []].append(folder) }
        }
    }

    deinit {
        release()
    }

    /// Lets the folders go: `holder(of:)` walks again. Idempotent.
    package func release() {
        Self.registry.withLockedValue { registry in
            for (path, folder) in held {
                registry[path]?.removeAll { $0 === folder }
                if registry[path]?.isEmpty == true { registry[path] = nil }
            }
        }
    }

    /// The held folder opened at `path`, if a hold has one.
    package static func folder(at path: String) -> Folder? {
        registry.withLockedValue { $0[path]?.last }
    }
}
