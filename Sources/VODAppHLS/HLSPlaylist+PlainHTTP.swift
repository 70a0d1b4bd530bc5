import VODAppModel

extension HLSPlaylist {
    /// The first http URL this playlist names when it was fetched over https from `url`, if
    /// any: what an https item brings must come over https, as its redirects must.
    package func plainHTTPURL(fetchedFrom url: MediaURL) -> MediaURL? {
        guard url.isHTTPS else { return nil }
        let named: [MediaURL?] = switch self {
        // Subtitles are checked when they are asked for (`SubtitleDownload`).
        case .master(let master): master.variants.map(\.url) + master.renditions.filter { $0.kind != .subtitles }.map(\.url)
        case .media(let media): media.segments.flatMap { [$0.url, $0.map?.url, $0.key?.url, $0.map?.key?.url] }
        }
        return named.compactMap { $0 }.first { !$0.isHTTPS }
    }

    /// Why an https playlist or manifest (`what`, at `url`) that names the http URL `plain`
    /// fails.
    package static func insecure(_ plain: MediaURL, named what: String, at url: MediaURL) -> String {
        "\(what) at \(url.redacted) is on https but names \(plain.redacted), which is not"
    }
}
