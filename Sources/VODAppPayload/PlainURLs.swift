import Foundation
import VODAppBase
import VODAppModel

/// `vodapp get URL…`: plain URLs as the payload of one push would carry them.
///
/// Each item's key is derived from its URL, so that the same URL given again is the same item
/// (already present, resumed, not fetched twice): the file name's stem, cut to what a key may
/// hold, and 8 hex digits of a hash of the URL's scheme, host, port and path (`MediaURL.resource`:
/// a signed URL whose token changes is still the same file, as for resuming). Its title is the
/// one given, else the file name's stem as the URL spells it, decoded.
public enum PlainURLs {
    /// The payload of `urls`, titled in order by `titles` (the rest by their file names).
    public static func payload(urls: [String], titles: [String] = []) -> Payload {
        Payload(items: urls.enumerated().map { index, text in
            let title = index < titles.count ? titles[index] : nil
            do throws(MediaURL.Rejection) {
                let url = try MediaURL(text)
                return PlaylistItem(key: key(for: url), validity: .valid(title: title ?? defaultTitle(url), subtitle: nil, url: url))
            } catch {
                return PlaylistItem(key: "url\(index + 1)", validity: .invalid(reason: error.description, title: title, url: text))
            }
        })
    }

    /// The key `url` is fetched under: `stem-hash`, or `url-hash` when the stem leaves nothing.
    public static func key(for url: MediaURL) -> String {
        // Runs of anything else than a key's characters (and of hyphens) become one hyphen.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
        let words = stemOf(url).split { !allowed.contains($0) }
        var stem = String(words.joined(separator: "-").prefix(100))
        while stem.hasSuffix("-") { stem.removeLast() }
        let hash = String(FNV1a.hash(url.resource) & 0xFFFF_FFFF, radix: 16)
        let digits = String(repeating: "0", count: 8 - hash.count) + hash
        return (stem.isEmpty ? "url" : stem) + "-" + digits
    }

    /// The last path component without its extension, percent-decoded: what a person calls it.
    static func stemOf(_ url: MediaURL) -> String {
        let last = url.path.split(separator: "/").last.map(String.init) ?? ""
        let decoded = last.removingPercentEncoding ?? last
        guard let dot = decoded.lastIndex(of: "."), dot != decoded.startIndex else { return decoded }
        return String(decoded[..<dot])
    }

    private static func defaultTitle(_ url: MediaURL) -> String {
        let stem = stemOf(url)
        return stem.isEmpty ? url.host : stem
    }
}
