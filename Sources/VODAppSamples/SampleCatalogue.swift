import Foundation

/// The original VODApp sample playlist, served by the sample server: the same keys and titles,
/// with bodies of chosen sizes so that one run shows every rule, including two items over the
/// 20 MiB limit, one with a Content-Length and one without.
public enum SampleCatalogue {
    public struct Entry: Sendable {
        public let key: String
        public let title: String
        public let subtitle: String?
        /// The path on the sample server.
        public let path: String
        public let bytes: Int64
    }

    /// The default port of `vodapp-push serve`, next to the listener's 9930 (UDP) and 9931 (HTTP).
    public static let defaultPort = 9932

    public static let entries: [Entry] = [
        Entry(key: "f3058e6662927f1fcd17840469cfd5f3", title: "Tulips", subtitle: nil,
              path: "/bytes/1572864.mp4", bytes: 1_572_864),
        Entry(key: "05747156e369eff34cbecb40a2adda6a", title: "Unicorns and horses spining around", subtitle: nil,
              path: "/bytes/3145728.mp4", bytes: 3_145_728),
        Entry(key: "27da99954cbcf488fb02a145079f3bb9", title: "Big Buck Bunny Movie", subtitle: "Animated movie yeah",
              path: "/bytes/26214400.mp4", bytes: 26_214_400),
        Entry(key: "f61c3d7f92b199ed7f5812781ccba06f", title: "Superb sunset - Miami Beach 2017", subtitle: nil,
              path: "/bytes/6291456.mp4", bytes: 6_291_456),
        Entry(key: "9f49077a912f958530060272d6d60d30", title: "Sam Smith, Normani - Dancing With A Stranger",
              subtitle: "Official video (Ft. Normani)", path: "/chunked/25165824.mp4", bytes: 25_165_824),
    ]

    /// A push payload whose playlist points at a sample server at `baseURL`, as pretty JSON, its
    /// items in the original playlist's order (JSONSerialization would sort or shuffle them, and
    /// vodapp keeps the order a payload gives).
    public static func payload(baseURL: String) -> String {
        func json(_ value: Any) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        let items = entries.map { entry -> String in
            var item: [String: Any] = ["title": entry.title, "url": baseURL + entry.path]
            if let subtitle = entry.subtitle { item["subtitle"] = subtitle }
            return "    " + json(entry.key) + ": " + json(item)
        }
        return "{\n  \"aps\": {\"content-available\": 1},\n  \"playlist\": {\n" + items.joined(separator: ",\n") + "\n  }\n}\n"
    }
}
