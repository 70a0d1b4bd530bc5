import Foundation
import VODAppBase
import VODAppMediaDirectory
import VODAppReport
import VODAppStore

/// The removal phase, after the transfers: `--sync`, then retention. Every file goes through
/// one path: found by the name vodapp gave it, checked to be still the file vodapp placed, and
/// removed through DIR's own descriptor (`MediaDirectory.remove`), following no link.
extension Delivery {
    /// Runs `--sync` (`sync`) and then retention (`retention`) under one hold of DIR's removals,
    /// so that one delivery at a time decides what goes and two do not count the same bytes.
    /// - Parameter startedAt: when this delivery began: what was recorded after it is another's.
    /// - Returns: what was removed, for the report.
    func applyRemovals(_ plan: DeliveryPlan, startedAt: Date, keeping reports: [String: ItemReport],
                       until deadline: ContinuousClock.Instant) async -> [RemovedFile] {
        let retains = options.retention.removesFiles
        guard options.sync || retains, let ledger = plan.ledger, let locks = plan.locks else { return [] }
        let purpose = options.sync ? (retains ? "--sync or retention" : "--sync") : "retention"
        // Not an item key (those have no dot), so no item's lock.
        guard await locks.wait(for: ".retention", until: deadline, stop: nil) else {
            attention.warn("no file was removed for \(purpose): another delivery held DIR's removals until the budget ran out")
            return []
        }
        defer { locks.release(".retention") }
        // What deliveries running beside this one recorded since they began is theirs: their
        // reports and playlists name it. Asked under the hold, as no delivery ends its removals
        // meanwhile; one that begins now records nothing this phase reads as old.
        let othersSince = locks.othersRunningSince()
        plan.directory.restoreSetAside()
        guard let root = removalRoot(of: plan.directory, for: purpose) else { return [] }
        // One read of the store for both: --sync needs the push's records in any state.
        var records = ledger.items(in: options.sync ? Set(StoredItem.State.allCases) : [.fetched, .partial], until: deadline)
        var removed: [RemovedFile] = []
        if options.sync {
            let synced = sync(plan, records: records, root: root, runningSince: min(startedAt, othersSince ?? startedAt),
                              needsRoom: reports.values.contains(where: \.lackedRoom), until: deadline)
            removed += synced.removed
            records.removeAll { synced.settled.contains($0.key) }
        }
        if retains {
            removed += retention(plan, records: records, root: root, keeping: reports, othersRunningSince: othersSince,
                                 until: deadline)
        }
        return removed
    }

    /// DIR held open, through which every file is found, checked and removed; nil, with a
    /// warning that nothing was removed for `purpose`, when it cannot be opened or its way is
    /// not safe.
    private func removalRoot(of directory: MediaDirectory, for purpose: String) -> Folder? {
        let root: Folder
        do {
            root = try directory.folder()
        } catch {
            attention.warn("no file was removed for \(purpose): \(error)")
            return nil
        }
        // A way to DIR that another user can change could have led this run to a folder the user
        // never named, whose files it would remove (`DirectoryPath`). Asked after DIR is held
        // open: when nobody else can change the way, the folder held is the one it names, and a
        // swap after this check cannot move what is held.
        if let refusal = DirectoryPath.refusal(to: directory.path) {
            attention.warn("no file was removed for \(purpose): \(refusal), so another user could point \(directory.path) "
                           + "at a folder of yours elsewhere; keep DIR on a path only you (and root) can change")
            return nil
        }
        return root
    }

    /// The file `item`'s record says vodapp placed, while it is still that file, under a name
    /// vodapp gives the item's key (`Title [key].ext`, `key.ext`): a record naming another file
    /// of DIR's (a forged row) claims nothing.
    func placedFile(of item: StoredItem, in directory: MediaDirectory, root: Folder) -> MediaDirectory.PlacedFile? {
        guard let path = item.path, let bytes = item.bytes else { return nil }
        let name = (path as NSString).lastPathComponent
        guard MediaFileName.isName(name, of: item.key) else { return nil }
        return directory.placedFile(named: name, in: root, bytes: bytes, placedAt: item.updatedAt, fileID: item.fileID,
                                    fingerprint: item.fingerprint)
    }

    /// Removes `file`, `item`'s, and the subtitles placed beside it; nil, with a warning, when
    /// the file stays (the user's now, or it cannot be removed).
    func remove(_ file: MediaDirectory.PlacedFile, of item: StoredItem, in directory: MediaDirectory, root: Folder,
                reason: String, for purpose: String) -> [RemovedFile]? {
        switch directory.remove(file, in: root) {
        case .removed:
            return [RemovedFile(key: item.key, title: item.title, path: file.path, bytes: file.bytes, reason: reason)]
                + removeSubtitles(of: item, in: directory, root: root, reason: reason, for: purpose)
        case .kept(let why):
            // The user's now, whatever its name: kept, and no longer counted as vodapp's.
            attention.warn("kept \(file.path), which \(purpose) would have removed: \(why)")
        case .failed(let failure):
            attention.warn("cannot remove \(file.path) for \(purpose): \(failure)")
        }
        return nil
    }

    /// Removes `item`'s kept partial body; nil, with a warning, when it cannot be.
    func remove(_ partial: MediaDirectory.KeptPartial, of item: StoredItem, in directory: MediaDirectory,
                reason: String, for purpose: String) -> RemovedFile? {
        if let failure = directory.remove(partial) {
            attention.warn("cannot remove the partial body of \(item.key) for \(purpose): \(failure)")
            return nil
        }
        return RemovedFile(partial, of: item, reason: reason)
    }

    /// Removes the subtitle files placed beside `item`'s file, which was just removed: each one
    /// the store records under a name vodapp gives the item's subtitles, and only while it is
    /// still the file placed there (`MediaDirectory.placedFile`), as the item's own file.
    private func removeSubtitles(of item: StoredItem, in directory: MediaDirectory, root: Folder, reason: String,
                                 for purpose: String) -> [RemovedFile] {
        item.placedSubtitles.compactMap { subtitle in
            guard MediaFileName.isSubtitleName(subtitle.name, of: item.key),
                  let file = directory.placedFile(named: subtitle.name, in: root, bytes: subtitle.bytes, placedAt: item.updatedAt,
                                                  fileID: subtitle.fileID, fingerprint: subtitle.fingerprint) else { return nil }
            switch directory.remove(file, in: root) {
            case .removed:
                let language = (subtitle.name as NSString).deletingPathExtension.split(separator: ".").last.map(String.init) ?? "und"
                return RemovedFile(key: item.key, title: item.title, path: file.path, bytes: file.bytes,
                                   reason: "its video's \(language) subtitles, \(reason)")
            case .kept(let why):
                attention.warn("kept \(file.path), which \(purpose) would have removed with its video: \(why)")
            case .failed(let failure):
                attention.warn("cannot remove \(file.path) for \(purpose): \(failure)")
            }
            return nil
        }
    }
}
