import Foundation

/// Builds payload JSON for tests.
public enum PayloadBuilder {
    /// A valid push whose playlist has the given items, as `key: (title, url)`, written in the
    /// order given: vodapp keeps the payload's order, so the text must have one.
    public static func json(_ items: [(key: String, title: String, url: String)], extra: [String: Any] = [:]) -> Data {
        json(items.map { (key: $0.key, item: ["title": $0.title, "url": $0.url] as [String: Any]) }, extra: extra)
    }

    /// The same with whole item objects (a subtitle, a wrong type).
    public static func json(_ items: [(key: String, item: [String: Any])], extra: [String: Any] = [:]) -> Data {
        // JSONSerialization forgets order, so the playlist object is written member by member.
        let members = items.map { Self.text(of: $0.key) + ":" + Self.text(of: $0.item) }
        var rest: [String: Any] = ["aps": ["content-available": 1]]
        rest.merge(extra) { $1 }
        rest["playlist"] = nil
        let head = String(decoding: json(object: rest), as: UTF8.self).dropLast()
        let whole = String(head) + ",\"playlist\":{" + members.joined(separator: ",") + "}}"
        return Data(whole.utf8)
    }

    public static func json(object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }

    private static func text(of value: Any) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])) ?? Data(), as: UTF8.self)
    }
}
