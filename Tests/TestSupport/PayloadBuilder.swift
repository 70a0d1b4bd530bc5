import Foundation

/// Builds payload JSON for tests.
public enum PayloadBuilder {
    /// A valid push whose playlist has the given items, as `key: (title, url)`.
    public static func json(_ items: [(key: String, title: String, url: String)], extra: [String: Any] = [:]) -> Data {
        var playlist: [String: Any] = [:]
        for item in items {
            playlist[item.key] = ["title": item.title, "url": item.url]
        }
        return json(object: ["aps": ["content-available": 1], "playlist": playlist].merging(extra) { $1 })
    }

    public static func json(object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }
}
