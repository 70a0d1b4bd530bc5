import Foundation
import VODAppBase
import VODAppMediaDirectory
import VODAppPayload

/// `DIR/playlist.m3u8`, after the items are placed.
extension Delivery {
    /// Brings `DIR/playlist.m3u8` up to date with what this payload left in DIR. Deliveries that
    /// end together take turns, so that neither loses the other's entries.
    func updatePlaylist(_ plan: DeliveryPlan, with payload: Payload, reports: [String: ItemReport],
                        until deadline: ContinuousClock.Instant) async {
        guard let locks = plan.locks else { return }
        let directory = plan.directory
        let latest: [MediaPlaylist.Entry] = payload.items.compactMap { item in
            guard case .valid(let title, let subtitle, _) = item.validity, let report = reports[item.key],
                  report.status == .downloaded || report.status == .alreadyPresent,
                  let path = report.path, path.hasPrefix(directory.path + "/") else { return nil }
            return MediaPlaylist.entry(title: title, subtitle: subtitle, path: path)
        }
        // Not an item key (those have no dot), so no item's lock.
        guard await locks.wait(for: ".playlist", until: deadline, stop: nil) else {
            attention.warn("the playlist was not updated: another delivery held it until the budget ran out")
            return
        }
        defer { locks.release(".playlist") }
        // A playlist.m3u8 of the user's is left alone: vodapp's goes beside it, said once, when
        // it is first written there.
        let name = MediaPlaylist.name(in: directory.path)
        let path = directory.path + "/" + name
        if name != MediaFileName.playlist, case .absent = SafeFile.inspect(path) {
            let users = directory.path + "/" + MediaFileName.playlist
            // One an earlier vodapp wrote, before its playlists had the marker, is handed back
            // by removing it (vodapp.m3u8 keeps listing what DIR holds meanwhile).
            let earlier = MediaPlaylist.text(at: users).map(MediaPlaylist.looksLikeAnEarlierVodapps) ?? false
            attention.warn("\(users) is not vodapp's, and stays as it is: vodapp's playlist is \(path)"
                           + (earlier ? "; if an earlier vodapp wrote it, remove it, and vodapp writes it again" : ""))
        }
        let current = MediaPlaylist.text(at: path)
        // A playlist.m3u8 the user removed, after vodapp had written vodapp.m3u8 beside it,
        // starts from what vodapp.m3u8 lists: the items already in DIR stay listed.
        let fallback = directory.path + "/" + MediaPlaylist.fallbackName
        let seed = current ?? (name == MediaFileName.playlist ? MediaPlaylist.text(at: fallback).flatMap { MediaPlaylist.isVodapps($0) ? $0 : nil } : nil)
        let playlist = MediaPlaylist(parsing: seed ?? "", keepingOnly: directory.regularFiles()).merging(latest)
        // Unchanged, it is not rewritten: most deliveries of a known playlist change nothing.
        if playlist.text != current, let failure = playlist.write(to: path, workPath: directory.workPath, onlyOverItsOwn: name == MediaFileName.playlist) {
            attention.warn("cannot write \(path): \(failure)")
        }
    }
}
