import Foundation
import SystemPackage
import VODAppBase

/// `DIR/playlist.m3u8`: what DIR holds, for a media player (`mpv DIR/playlist.m3u8`, VLC).
///
/// Each delivery rewrites it: the entries of earlier deliveries that this payload does not name
/// come first, in the order they had, then this payload's present items in the payload's order.
/// An entry whose file is gone is dropped, so a player never meets a missing file; a title that
/// changed in a later payload changes the entry's title, not the file's name.
package struct MediaPlaylist: Equatable {
    package struct Entry: Equatable {
        /// `Title — Subtitle`, one line.
        package var title: String
        /// The file's name in DIR: entries are relative, so DIR can be moved or shared.
        package var name: String
    }

    package var entries: [Entry]

    /// The playlist file's text, if there is one that is a regular file; never read through a
    /// symbolic link or from a FIFO, which would block (`SafeFile`).
    package static func text(at path: String) -> String? {
        guard let bytes = try? SafeFile.contents(of: path, limit: 8 << 20) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Parses a playlist's text, keeping the entries that name one of `files`, the regular files
    /// directly in DIR.
    package init(parsing text: String, keepingOnly files: Set<String>) {
        entries = []
        var title: String?
        // Split on bytes: splitting on Characters (grapheme breaking) was most of the parsing time.
        for bytes in text.utf8.split(separator: UInt8(ascii: "\n")) {
            var line = Substring(bytes)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.hasPrefix("#EXTINF:") {
                title = line.firstIndex(of: ",").map { String(line[line.index(after: $0)...]) }
                continue
            }
            guard !line.hasPrefix("#") else { continue }
            var name = line
            if name.hasPrefix("./") { name = name.dropFirst(2) }
            guard !name.hasPrefix("."), files.contains(String(name)) else {
                title = nil
                continue
            }
            entries.append(Entry(title: title ?? String(name), name: String(name)))
            title = nil
        }
    }

    package init(entries: [Entry]) {
        self.entries = entries
    }

    /// This playlist with `latest` merged in: see the type's comment.
    package func merging(_ latest: [Entry]) -> MediaPlaylist {
        let named = Set(latest.map(\.name))
        return MediaPlaylist(entries: entries.filter { !named.contains($0.name) } + latest)
    }

    /// The entry of one item: its title and subtitle as a player shows them.
    package static func entry(title: String, subtitle: String?, path: String) -> Entry {
        var shown = title
        if let subtitle, !subtitle.isEmpty { shown += " — " + subtitle }
        let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
        return Entry(title: UntrustedText.sanitized(shown, limit: 500, replacingControlsWith: " "), name: name)
    }

    /// The line that says a playlist is vodapp's own, to rewrite: a comment to a player (a line
    /// that starts with `#` and is no `#EXT` tag).
    package static let marker = "#VODAPP: written by vodapp, which rewrites it after each delivery"

    /// The name vodapp's playlist has in DIR: `playlist.m3u8` when nothing has that name or a
    /// playlist vodapp wrote has it (one with vodapp's marker, or one an earlier vodapp wrote);
    /// otherwise `vodapp.m3u8`, and what has the name is left alone. That includes a symbolic
    /// link, a FIFO or a hard link: only the user, or a process of theirs, can place one in a DIR
    /// whose way no other user can change (`Delivery.checkWay`), so it is theirs (a link to a
    /// list they keep elsewhere, say), not something planted to be replaced (seventh trial, F3b).
    /// - Parameter placed: whether vodapp placed the file of this name for this key (`isVodapps`).
    package static func name(in directory: String, placed: (_ key: String, _ name: String) -> Bool = { _, _ in false }) -> String {
        let path = directory + "/" + MediaFileName.playlist
        switch SafeFile.inspect(path) {
        case .absent: return MediaFileName.playlist
        case .file: break
        case .unsafe: return fallbackName
        }
        // A regular file vodapp cannot read as its own (not UTF-8, over 8 MiB, unreadable) is not
        // proven vodapp's, so it is the user's.
        guard let text = text(at: path) else { return fallbackName }
        return isVodapps(text, placed: placed) ? MediaFileName.playlist : fallbackName
    }

    /// Where vodapp's playlist goes when `playlist.m3u8` is the user's.
    package static let fallbackName = "vodapp.m3u8"

    /// Whether `text` is a playlist vodapp wrote: it carries the marker, or it has exactly the
    /// shape vodapp gave its playlists before it had one (`#EXTM3U`, then, for one entry or more,
    /// an `#EXTINF:-1,` title and a name of the form `Title [key].ext`) and vodapp placed every
    /// file it names, under that very name, for that key (`placed`: the store records the key as
    /// fetched into a file of that name, and the file is there).
    ///
    /// The shape alone is not enough: yt-dlp names files `Title [id].ext` too, and the sixth
    /// attacker trial had a user's list of those rewritten. Nor is a record of the key: the
    /// seventh had an unauthenticated push of the list's keys, failing with 404, leave records
    /// that made the user's list vodapp's, and rewritten. A file vodapp placed at a name is not
    /// the user's own file of that name, which it never replaces. A name such as `holiday.mp4`
    /// passes the key rule, so plain `key.ext` names (`--name key`) do not count: a user's list
    /// of them would be taken.
    package static func isVodapps(_ text: String, placed: (_ key: String, _ name: String) -> Bool = { _, _ in false }) -> Bool {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard lines.first == "#EXTM3U" else { return false }
        if lines.contains(where: { $0 == marker }) { return true }
        var rest = lines.dropFirst()
        guard !rest.isEmpty else { return false }
        while let title = rest.popFirst() {
            guard title.hasPrefix("#EXTINF:-1,"), var name = rest.popFirst() else { return false }
            if name.hasPrefix("./") { name = name.dropFirst(2) }
            guard !name.hasPrefix("."), !name.contains("/"), MediaFileName.shape(of: String(name))?.style == .title,
                  let key = MediaFileName.key(of: String(name)), placed(key, String(name)) else { return false }
        }
        return true
    }

    package var text: String {
        var lines = ["#EXTM3U", Self.marker]
        for entry in entries {
            lines.append("#EXTINF:-1," + entry.title)
            // A line that starts with # is a comment to a player.
            lines.append(entry.name.hasPrefix("#") ? "./" + entry.name : entry.name)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Replaces the file at `path` with this playlist in one rename, written first in `workPath`,
    /// so that a player never reads half a playlist.
    /// - Returns: nil, or why it could not be written.
    package func write(to path: String, workPath: String) -> String? {
        do {
            try SafeFile.replace(path, with: Array(text.utf8), writingFirst: workPath + "/playlist.m3u8.new")
            return nil
        } catch {
            return error.description
        }
    }
}
