import Foundation
import VODAppBase
import VODAppPayload
import VODAppModel

/// The name a fetched item gets in DIR, and the way back from a name to the item's key.
///
/// By default a file is named `Title [key].ext`, the yt-dlp convention: people recognise the
/// title, and the key keeps names distinct and lets a later delivery find the file whatever title
/// it now carries. `--name key` gives `key.ext`, the names of earlier versions, which are still
/// recognised in either style.
public struct MediaFileName: Sendable, Equatable {
    /// How names are made (`--name`).
    public enum Style: String, Sendable, CaseIterable {
        /// `Title [key].ext`
        case title
        /// `key.ext`
        case key
    }

    /// The most bytes of title in a name; the whole name also stays within the 255 bytes that
    /// ext4, btrfs, XFS, NTFS and exFAT allow.
    public static let titleLimit = 200
    static let nameLimit = 255

    /// The playlist vodapp keeps in DIR: no item may take its name.
    public static let playlist = "playlist.m3u8"

    public let value: String

    /// - Parameters:
    ///   - key: a valid key (`[A-Za-z0-9_-]{1,128}`).
    ///   - fileExtension: lowercase alphanumeric, at most 8 characters, or nil.
    public init(key: String, title: String, fileExtension: String?, style: Style) {
        let suffix = fileExtension.map { "." + $0 } ?? ""
        let plain = key + suffix
        // The key `playlist` with a `.m3u8` URL would take the playlist's own name.
        if style == .key, plain != Self.playlist {
            value = plain
            return
        }
        let tag = "[" + key + "]"
        let room = min(Self.titleLimit, Self.nameLimit - tag.utf8.count - 1 - suffix.utf8.count)
        let safe = Self.safeTitle(title, limit: room)
        value = (safe.isEmpty ? tag : safe + " " + tag) + suffix
    }

    /// A title made safe as a file name on every common file system:
    /// - `/` and the characters Windows file systems refuse (`\ : * ? " < > |`) become their
    ///   full-width look-alikes (`⧸ ⧹ ： ＊ ？ ＂ ＜ ＞ ｜`), as yt-dlp does, so the title still reads;
    /// - control and bidirectional formatting characters become spaces, and runs of spaces one;
    /// - no leading dot (a hidden file, or `..`), dash (an option to the next command) or space,
    ///   and no trailing dot or space (Windows drops them);
    /// - at most `limit` bytes of UTF-8, cut between characters.
    static func safeTitle(_ title: String, limit: Int) -> String {
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in UntrustedText.sanitized(title, limit: title.unicodeScalars.count, replacingControlsWith: " ").unicodeScalars {
            let mapped = Self.lookAlikes[scalar] ?? scalar
            let isSpace = mapped.properties.isWhitespace
            if isSpace && lastWasSpace { continue }
            scalars.append(isSpace ? " " : mapped)
            lastWasSpace = isSpace
        }
        var text = Substring(String(scalars))
        text = text.drop { $0 == "." || $0 == "-" || $0 == " " }
        var cut = ""
        for character in text {
            guard cut.utf8.count + character.utf8.count <= limit else { break }
            cut.append(character)
        }
        while let last = cut.last, last == "." || last == " " { cut.removeLast() }
        return cut
    }

    private static let lookAlikes: [Unicode.Scalar: Unicode.Scalar] = [
        "/": "\u{29F8}", "\\": "\u{29F9}", ":": "\u{FF1A}", "*": "\u{FF0A}", "?": "\u{FF1F}",
        "\"": "\u{FF02}", "<": "\u{FF1C}", ">": "\u{FF1E}", "|": "\u{FF5C}",
    ]

    /// The key a name in DIR belongs to, if vodapp could have made it: `… [key].ext` in either
    /// style's shape, or `key.ext` when the extension is one a media file has (or `accepting`,
    /// the item's own), so that a user's `notes.txt` is not taken for the item `notes`.
    package static func key(of name: String, accepting urlExtension: String? = nil) -> String? {
        shape(of: name).flatMap { $0.belongs(withURLExtension: urlExtension) ? $0.key : nil }
    }

    /// Whether `name` is one vodapp gives the item `key`: `Title [key].ext` or `key.ext`, where
    /// `.ext` is a media type's or none (`fileExtension(url:contentType:)` gives no other), so
    /// that a record naming `key.pdf` claims no user's file.
    /// The key a media file's name gives, when it is a name vodapp gives media: `isName(name, of:)`
    /// holds for that key alone.
    package static func key(ofMediaName name: String) -> String? {
        guard let shape = shape(of: name), shape.fileExtension.map(mediaExtensions.contains) ?? true else { return nil }
        return shape.key
    }

    package static func isName(_ name: String, of key: String) -> Bool {
        guard let shape = shape(of: name), shape.key == key else { return false }
        return shape.fileExtension.map(mediaExtensions.contains) ?? true
    }

    /// The name of a subtitle file beside `file` (a name vodapp gave an item's file), in
    /// `language` (`SubtitleChoice.fileTag`): `Title [key].en.vtt` beside `Title [key].mp4`, the
    /// name mpv and VLC look for beside a video.
    package static func subtitle(beside file: String, language: String) -> String {
        var stem = Substring(file)
        if let shape = shape(of: file), let fileExtension = shape.fileExtension {
            stem = stem.dropLast(fileExtension.utf8.count + 1)
        }
        return stem + "." + language + ".vtt"
    }

    /// Whether `name` is one `subtitle(beside:language:)` gives a file of the item `key`, so that
    /// a record naming another file of DIR's (a forged row) claims nothing.
    package static func isSubtitleName(_ name: String, of key: String) -> Bool {
        guard name.hasSuffix(".vtt") else { return false }
        let stem = name.dropLast(4)
        guard let dot = stem.lastIndex(of: "."), dot != stem.startIndex else { return false }
        let language = stem[stem.index(after: dot)...]
        guard (1...35).contains(language.count),
              language.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") })
        else { return false }
        let file = String(stem[..<dot])
        guard !file.hasPrefix("."), Folder.isComponent(name) else { return false }
        return isName(file, of: key)
    }

    /// A name taken apart: the key it carries, the style it has, and its plain extension
    /// (lowercased), whatever that extension is.
    struct Shape {
        let key: String
        let style: Style
        let fileExtension: String?

        /// Whether the name is the item's file: `… [key]` with any extension; `key.ext` only with
        /// a media extension or the item's URL's own.
        func belongs(withURLExtension urlExtension: String?) -> Bool {
            guard style == .key, let fileExtension else { return true }
            return fileExtension == urlExtension || mediaExtensions.contains(fileExtension)
        }
    }

    static func shape(of name: String) -> Shape? {
        var stem = Substring(name)
        var fileExtension: String?
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let candidate = name[name.index(after: dot)...]
            if MediaURL.isPlainExtension(candidate) {
                stem = name[..<dot]
                fileExtension = candidate.lowercased()
            }
        }
        if stem.hasSuffix("]"), let open = stem.lastIndex(of: "[") {
            let key = String(stem[stem.index(after: open)..<stem.index(before: stem.endIndex)])
            let before = open == stem.startIndex ? nil : stem[stem.index(before: open)]
            if ItemKey.isValid(key), before == nil || before == " " {
                return Shape(key: key, style: .title, fileExtension: fileExtension)
            }
        }
        return ItemKey.isValid(String(stem)) ? Shape(key: String(stem), style: .key, fileExtension: fileExtension) : nil
    }

    /// The extension an item's file gets: the URL's when it names a media type, else the one the
    /// Content-Type names, else none. Never another: a payload or a server must not make vodapp
    /// write `.html`, `.sh` or `.desktop` files, which a file manager or a browser would open as
    /// what they say (players read the bytes, and need no extension).
    package static func fileExtension(url: MediaURL, contentType: String?) -> String? {
        if let fromURL = url.fileExtension, mediaExtensions.contains(fromURL) { return fromURL }
        return Self.extensionsByType[ContentTypeEssence.of(contentType)]
    }

    private static let extensionsByType: [String: String] = [
        "video/mp4": "mp4", "video/x-m4v": "m4v", "video/quicktime": "mov", "video/x-matroska": "mkv",
        "video/webm": "webm", "video/x-msvideo": "avi", "video/mp2t": "ts", "video/mpeg": "mpg", "video/ogg": "ogv",
        "video/3gpp": "3gp", "video/x-flv": "flv", "video/x-ms-wmv": "wmv",
        "audio/mpeg": "mp3", "audio/mp4": "m4a", "audio/aac": "aac", "audio/flac": "flac", "audio/ogg": "ogg",
        "audio/opus": "opus", "audio/wav": "wav", "audio/x-wav": "wav", "audio/webm": "weba",
    ]

    /// Audio and video only: images and subtitles are refused as media (`MediaSniffer`), so no
    /// file is named as one.
    static let mediaExtensions: Set<String> = Set(extensionsByType.values)
        .union(["mpeg", "m2ts", "mts", "mka", "oga"])
}
