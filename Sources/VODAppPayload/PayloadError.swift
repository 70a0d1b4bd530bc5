import VODAppBase

/// Why a payload was rejected as a whole. Each case renders as one line a person can act on.
public enum PayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLarge(limit: Int)
    case notUTF8
    case notJSON(String)
    case notAnObject(found: String)
    case missingAPS
    case notContentAvailable(found: String)
    case missingPlaylist(found: String?)
    case everyItemInvalid(count: Int, firstReason: String)

    public var description: String {
        switch self {
        case .tooLarge(let limit):
            "payload is larger than \(limit / 1024 / 1024) MiB"
        case .notUTF8:
            "payload is not UTF-8 text"
        case .notJSON(let detail):
            "payload is not valid JSON: \(detail)"
        case .notAnObject(let found):
            "payload must be a JSON object, found \(found)"
        case .missingAPS:
            "payload has no \"aps\" object, so it is not a push"
        case .notContentAvailable(let found):
            "aps.content-available is \(found), not 1: such a push would not wake the app in the background"
        case .missingPlaylist(nil):
            "payload has no \"playlist\" object"
        case .missingPlaylist(let found?):
            "\"playlist\" must be an object keyed by item id, found \(found)"
        case .everyItemInvalid(let count, let firstReason):
            "all \(count) playlist item(s) are invalid (first: \(firstReason))"
        }
    }
}

extension PayloadError: ExitStatusProviding {
    public var exitStatus: ExitStatus { .invalidPayload }
    public var commandMessage: String { "invalid payload: \(description)" }
}
