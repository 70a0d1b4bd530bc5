import VODAppModel

/// One entry of a payload's playlist, as validated.
///
/// An item is either valid, with a title and a fetchable URL, or invalid with the reason why. The
/// key of a valid item has been checked against `[A-Za-z0-9_-]{1,128}`, so it is safe to use in a
/// file name; the key of an invalid item must never reach the file system.
public struct PlaylistItem: Sendable, Equatable {
    public enum Validity: Sendable, Equatable {
        case valid(title: String, subtitle: String?, url: MediaURL)
        case invalid(reason: String, title: String?, url: String?)
    }

    public let key: String
    public let validity: Validity

    public init(key: String, validity: Validity) {
        self.key = key
        self.validity = validity
    }

    public var isValid: Bool {
        if case .valid = validity { return true }
        return false
    }

    public var title: String? {
        switch validity {
        case .valid(let title, _, _): title
        case .invalid(_, let title, _): title
        }
    }

    /// The subtitle of a valid item, when the payload gave one.
    public var subtitle: String? {
        if case .valid(_, let subtitle, _) = validity { return subtitle }
        return nil
    }

    /// The URL as reports, logs and the store show it: a password in it is redacted.
    public var urlString: String? {
        switch validity {
        case .valid(_, _, let url): url.redacted
        case .invalid(_, _, let url): url.map(MediaURL.redacting)
        }
    }
}
