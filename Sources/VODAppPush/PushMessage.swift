import Foundation

/// A push as `vodapp-push send` sends it: a JSON object with `aps`, made compact.
///
/// Compacting removes only the whitespace between tokens, so keys keep their order and numbers
/// and strings keep their exact text: the receiver sees what the file said, in fewer bytes.
public struct PushMessage: Sendable, Equatable {
    /// What APNs and `xcrun simctl push` accept; larger pushes never reached a real phone.
    public static let apnsLimit = 4096

    /// The compact JSON text.
    public let body: Data

    /// - Throws: `PushMessageError` when the text is not a JSON object with an `aps` object.
    public init(data: Data) throws(PushMessageError) {
        guard String(data: data, encoding: .utf8) != nil else { throw .notUTF8 }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .notJSON(error.localizedDescription)
        }
        guard let dictionary = object as? [String: Any] else { throw .notAnObject }
        guard dictionary["aps"] is [String: Any] else { throw .missingAPS }
        body = Self.compact(data)
    }

    /// Why the message would not wake vodapp, if it would not: a warning, since testing how a
    /// receiver rejects such a push is a fair use of a sender.
    public var doesNotWakeTheApp: Bool {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let aps = object["aps"] as? [String: Any],
              let available = aps["content-available"] as? NSNumber
        else { return true }
        return available != 1
    }

    /// Removes insignificant whitespace from valid JSON text.
    static func compact(_ json: Data) -> Data {
        var output = Data()
        output.reserveCapacity(json.count)
        var inString = false
        var escaped = false
        for byte in json {
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            default:
                output.append(byte)
            }
        }
        return output
    }
}

/// Why a file is not a push. Each renders as one line.
public enum PushMessageError: Error, Equatable, Sendable, CustomStringConvertible {
    case notUTF8
    case notJSON(String)
    case notAnObject
    case missingAPS

    public var description: String {
        switch self {
        case .notUTF8: "the payload is not UTF-8 text"
        case .notJSON(let detail): "the payload is not valid JSON: \(detail)"
        case .notAnObject: "the payload must be a JSON object"
        case .missingAPS: "the payload has no \"aps\" object, so it is not a push"
        }
    }
}
