/// The alert a push may carry beside `content-available` (`aps.alert`): what the phone showed at
/// once, before the app woke to fetch. APNs allows a string, or an object whose `title`,
/// `subtitle` and `body` are strings; its `*-loc-key` members name texts in the app's bundle,
/// which vodapp does not have, so they are not shown.
///
/// The texts are as sent: whoever shows them makes them displayable.
public struct PushAlert: Sendable, Equatable {
    public let title: String?
    public let subtitle: String?
    public let body: String?

    public init(title: String?, subtitle: String? = nil, body: String?) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }

    /// What `aps.alert` makes: an alert, or why it cannot be one. An alert that is wrong costs the
    /// payload nothing: the contract rejects a payload only for what stops the fetch.
    enum Reading: Sendable, Equatable {
        case alert(PushAlert)
        case ignored(String)
    }

    static func read(_ value: JSONValue) -> Reading {
        switch value {
        case .string(let text):
            return isBlank(text) ? .ignored("aps.alert is empty") : .alert(PushAlert(title: nil, body: text))
        case .object(let fields):
            var texts: [String: String] = [:]
            for name in ["title", "subtitle", "body"] {
                switch fields[name] {
                case nil: continue
                case .string(let text)?: if !isBlank(text) { texts[name] = text }
                case let other?: return .ignored("aps.alert.\(name) is \(other.typeName), not a string")
                }
            }
            guard texts["title"] != nil || texts["body"] != nil else {
                return .ignored("aps.alert has no title or body text to show")
            }
            return .alert(PushAlert(title: texts["title"], subtitle: texts["subtitle"], body: texts["body"]))
        default:
            return .ignored("aps.alert is \(value.typeName), not a string or an object")
        }
    }

    private static func isBlank(_ text: String) -> Bool {
        text.allSatisfy(\.isWhitespace)
    }
}
