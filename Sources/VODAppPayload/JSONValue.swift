/// A JSON document as values, so that validation can say exactly which part of a payload is wrong
/// instead of failing on the first type mismatch as a `Decodable` model would. Made by
/// `JSONParser`.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object's members in the order they are written: a playlist's order is the publisher's
/// (episode 1, 2, 3…), which the report, the transfers and the media player keep. `JSONParser`
/// refuses a key written twice, so each key is here once.
public struct JSONObject: Sendable, Equatable {
    public struct Member: Sendable, Equatable {
        public let key: String
        public let value: JSONValue
    }

    public let members: [Member]

    package init(members: [Member]) {
        self.members = members
    }

    /// The value of `key`. Objects a payload looks into by key are small (`aps`, an item).
    public subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }
}
