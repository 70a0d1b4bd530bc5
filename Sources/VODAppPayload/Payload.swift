import Foundation
import VODAppModel

/// A silent push that carries a playlist: `{"aps": {"content-available": 1}, "playlist": {…}}`.
///
/// Parsing follows the contract: the payload as a whole is rejected with a `PayloadError` when it
/// cannot be a background push with a playlist; single items that are wrong are kept as invalid,
/// with the reason, so the report can say what was skipped.
public struct Payload: Sendable, Equatable {
    /// The largest payload accepted, in bytes.
    public static let maximumSize = 1 << 20

    /// The playlist items in the payload's order: the order the publisher wrote them, which the
    /// report, the transfers and the media player's playlist keep.
    public let items: [PlaylistItem]
    /// What `aps.alert` made, when the push has one.
    private let alertReading: PushAlert.Reading?

    /// What `aps.alert` asks to show at once, when it is one vodapp can show.
    public var alert: PushAlert? {
        if case .alert(let alert)? = alertReading { alert } else { nil }
    }

    /// Why an `aps.alert` the push has is not shown (not text, nothing to show); nil otherwise.
    public var ignoredAlert: String? {
        if case .ignored(let why)? = alertReading { why } else { nil }
    }

    public init(items: [PlaylistItem], alert: PushAlert? = nil) {
        self.items = items
        alertReading = alert.map(PushAlert.Reading.alert)
    }

    /// The items that will be fetched.
    public var validItems: [PlaylistItem] { items.filter(\.isValid) }

    /// Parses and validates payload bytes.
    /// - Parameter data: the payload as received, at most `maximumSize` bytes.
    /// - Throws: `PayloadError` when the payload is invalid as a whole.
    public init(data: Data) throws(PayloadError) {
        guard data.count <= Self.maximumSize else { throw .tooLarge(limit: Self.maximumSize) }
        guard String(validating: data, as: UTF8.self) != nil else { throw .notUTF8 }
        guard data.contains(where: { !Self.isJSONWhitespace($0) }) else { throw .notJSON("the payload is empty") }

        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw .notJSON(error.description)
        }

        guard case .object(let object) = root else { throw .notAnObject(found: root.typeName) }
        guard case .object(let aps)? = object["aps"] else { throw .missingAPS }
        switch aps["content-available"] {
        case .number(1)?:
            break
        case nil:
            throw .notContentAvailable(found: "missing")
        case .number(let other)?:
            throw .notContentAvailable(found: Self.format(other))
        case let other?:
            throw .notContentAvailable(found: other.typeName)
        }
        guard let playlistValue = object["playlist"] else { throw .missingPlaylist(found: nil) }
        guard case .object(let playlist) = playlistValue else {
            throw .missingPlaylist(found: playlistValue.typeName)
        }

        let items = playlist.members.map { member in
            PlaylistItem(key: member.key, validity: Self.validate(key: member.key, value: member.value))
        }
        if !items.isEmpty, !items.contains(where: \.isValid) {
            let firstReason: String
            if case .invalid(let reason, _, _)? = items.first?.validity {
                firstReason = reason
            } else {
                firstReason = "invalid"
            }
            throw .everyItemInvalid(count: items.count, firstReason: firstReason)
        }
        self.items = items
        alertReading = aps["alert"].map(PushAlert.read)
    }

    private static func validate(key: String, value: JSONValue) -> PlaylistItem.Validity {
        guard case .object(let fields) = value else {
            return .invalid(reason: "item is \(value.typeName), not an object", title: nil, url: nil)
        }
        let title: String? = if case .string(let title)? = fields["title"] { title } else { nil }
        let urlText: String? = if case .string(let url)? = fields["url"] { url } else { nil }
        func invalid(_ reason: String) -> PlaylistItem.Validity {
            .invalid(reason: reason, title: title, url: urlText)
        }

        guard ItemKey.isValid(key) else {
            return invalid("key must be 1 to 128 characters of A-Z, a-z, 0-9, _ and -")
        }
        guard let title else {
            return invalid(fields["title"].map { "title is \($0.typeName), not a string" } ?? "title is missing")
        }
        var subtitle: String?
        switch fields["subtitle"] {
        case nil: subtitle = nil
        case .string(let text)?: subtitle = text
        case let other?: return invalid("subtitle is \(other.typeName), not a string")
        }
        guard let urlText else {
            return invalid(fields["url"].map { "url is \($0.typeName), not a string" } ?? "url is missing")
        }
        do {
            return .valid(title: title, subtitle: subtitle, url: try MediaURL(urlText))
        } catch {
            return invalid(error.description)
        }
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
