import Foundation
import VODAppBase
import VODAppMediaDirectory
import VODAppPayload
import VODAppReport
import VODAppStore

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
        let earlier = MediaPlaylist(parsing: seed ?? "", keepingOnly: directory.regularFiles())
        let playlist: MediaPlaylist
        if options.playlistScope == .latest, let pushed = plan.ledger?.latestPush(until: deadline), !pushed.isEmpty {
            playlist = Self.latest(pushed, entries: latest + earlier.entries, keepingTheRestUntilComplete: options.sync)
        } else {
            playlist = options.playlistScope == .latest ? MediaPlaylist(entries: latest) : earlier.merging(latest)
        }
        // Unchanged, it is not rewritten: most deliveries of a known playlist change nothing.
        if playlist.text != current, let failure = playlist.write(to: path, workPath: directory.workPath, onlyOverItsOwn: name == MediaFileName.playlist) {
            attention.warn("cannot write \(path): \(failure)")
        }
    }

    /// `--playlist latest`: the latest push's items, in its order, each with the entry of a file
    /// of its key among `entries` (this delivery's first, then the playlist's), titled as the push
    /// titles it. A retry, which is not a push, lists the push so too.
    /// - Parameter keepingTheRestUntilComplete: with `--sync`, while an item of the push is not
    ///   in DIR yet, the entries of the set before it follow, as long as their files are there:
    ///   the screen keeps what it has until the new set is complete (it used to drop to the
    ///   new items that had arrived, one clip of a campaign on a small disk).
    static func latest(_ pushed: [PushedItem], entries: [MediaPlaylist.Entry], keepingTheRestUntilComplete: Bool = false) -> MediaPlaylist {
        var byKey: [String: MediaPlaylist.Entry] = [:]
        for entry in entries {
            guard let key = MediaFileName.key(ofMediaName: entry.name), byKey[key] == nil else { continue }
            byKey[key] = entry
        }
        let listed = pushed.compactMap { item in
            byKey[item.key].map { MediaPlaylist.entry(title: item.title, subtitle: item.subtitle, path: $0.name) }
        }
        guard keepingTheRestUntilComplete, listed.count < pushed.count else { return MediaPlaylist(entries: listed) }
        let named = Set(pushed.map(\.key))
        var seen = Set<String>()
        let rest = entries.filter { entry in
            guard let key = MediaFileName.key(ofMediaName: entry.name), !named.contains(key) else { return false }
            return seen.insert(key).inserted
        }
        return MediaPlaylist(entries: listed + rest)
    }
}
