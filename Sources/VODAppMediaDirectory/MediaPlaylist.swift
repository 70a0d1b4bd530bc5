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
        let name = String(path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...])
        return Entry(title: UntrustedText.sanitized(shown, limit: 500, replacingControlsWith: " "), name: name)
    }

    /// The line that says a playlist is vodapp's own, to rewrite: a comment to a player (a line
    /// that starts with `#` and is no `#EXT` tag).
    package static let marker = "#VODAPP: written by vodapp, which rewrites it after each delivery"

    /// The name vodapp's playlist has in DIR: `playlist.m3u8` when nothing has that name or a
    /// playlist vodapp wrote has it (a regular file with vodapp's marker line); otherwise
    /// `vodapp.m3u8`, and what has the name is left alone. That includes a symbolic link, a FIFO
    /// or a hard link: only the user, or a process of theirs, can place one in a DIR whose way no
    /// other user can change (`Delivery.checkWay`), so it is theirs (a link to a list they keep
    /// elsewhere, say), not something planted to be replaced (seventh trial, F3b).
    package static func name(in directory: String) -> String {
        let path = directory + "/" + MediaFileName.playlist
        switch SafeFile.inspect(path) {
        case .absent: return MediaFileName.playlist
        case .file: break
        case .unsafe: return fallbackName
        }
        // A regular file vodapp cannot read as its own (not UTF-8, over 8 MiB, unreadable) is not
        // proven vodapp's, so it is the user's.
        guard let text = text(at: path) else { return fallbackName }
        return isVodapps(text) ? MediaFileName.playlist : fallbackName
    }

    /// Where vodapp's playlist goes when `playlist.m3u8` is the user's.
    package static let fallbackName = "vodapp.m3u8"

    /// Whether `text` is a playlist vodapp wrote: `#EXTM3U`, and vodapp's marker line.
    ///
    /// Only the marker: three attacker trials took a user's list for one an earlier vodapp wrote,
    /// before it had the marker, by its shape (`Title [key].ext` entries, as yt-dlp names files
    /// too), then by records of its keys (which a failed push leaves), then by files vodapp placed
    /// under its names (which a push of their keys makes it place), and each time the user's list
    /// was rewritten. Such a list is now the user's, as any other; `looksLikeAnEarlierVodapps`
    /// only tells the user how to hand it back.
    package static func isVodapps(_ text: String) -> Bool {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.first == "#EXTM3U" && lines.contains { $0 == marker }
    }

    /// Whether `text` has exactly the shape vodapp gave its playlists before they had the marker
    /// (`#EXTM3U`, then, for one entry or more, an `#EXTINF:-1,` title and a name of the form
    /// `Title [key].ext`): the one-line warning then says how to have vodapp write it again.
    package static func looksLikeAnEarlierVodapps(_ text: String) -> Bool {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard lines.first == "#EXTM3U" else { return false }
        var rest = lines.dropFirst()
        guard !rest.isEmpty else { return false }
        while let title = rest.popFirst() {
            guard title.hasPrefix("#EXTINF:-1,"), var name = rest.popFirst() else { return false }
            if name.hasPrefix("./") { name = name.dropFirst(2) }
            guard !name.hasPrefix("."), !name.contains("/"), MediaFileName.shape(of: String(name))?.style == .title else { return false }
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
    /// - Parameter onlyOverItsOwn: replace only a playlist with vodapp's marker, as it is at the
    ///   moment of the swap (`SafeFile.place`): `playlist.m3u8`, which the user may save a list
    ///   of theirs to at any moment. `vodapp.m3u8` is vodapp's by its name.
    /// - Returns: nil, or why it could not be written.
    package func write(to path: String, workPath: String, onlyOverItsOwn: Bool) -> String? {
        do {
            try SafeFile.place(path, with: Array(text.utf8), writingFirst: workPath + "/playlist.m3u8.new") { current in
                !onlyOverItsOwn || current.flatMap { String(validating: $0, as: UTF8.self) }.map(Self.isVodapps) ?? false
            }
            return nil
        } catch {
            return error.description
        }
    }
}
