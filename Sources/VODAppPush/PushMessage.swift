import Foundation
import VODAppBase
import VODAppPayload

/// A push as `vodapp-push send` sends it: a JSON object with `aps`, made compact.
///
/// Compacting removes only the whitespace between tokens, so keys keep their order and numbers
/// and strings keep their exact text: the receiver sees what the file said, in fewer bytes.
public struct PushMessage: Sendable, Equatable {
    /// What APNs and `xcrun simctl push` accept; larger pushes never reached a real phone.
    public static let apnsLimit = 4096

    /// The compact JSON text.
    public let body: Data

    /// - Throws: `PushMessageError` when the text is not a JSON object with an `aps` object. The
    ///   JSON is judged by vodapp's own parser, so what one refuses as JSON the other refuses too.
    public init(data: Data) throws(PushMessageError) {
        // In vodapp's order, with vodapp's words: a file read up to the limit is judged by its
        // size, not as JSON cut short.
        guard data.count <= Payload.maximumSize else { throw .tooLarge(limit: Payload.maximumSize) }
        guard String(validating: data, as: UTF8.self) != nil else { throw .notUTF8 }
        guard data.contains(where: { !" \t\r\n".utf8.contains($0) }) else { throw .notJSON("the payload is empty") }
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw .notJSON(error.description)
        }
        guard case .object(let object) = root else { throw .notAnObject }
        guard case .object? = object["aps"] else { throw .missingAPS }
        body = Self.compact(data)
    }

    /// Why vodapp would refuse this push as a whole, if it would: a warning, since testing how a
    /// receiver rejects a push is a fair use of a sender. It is vodapp's own verdict, so the two
    /// never disagree (`"content-available": true` is refused by both).
    public var refusalByVodapp: String? {
        do {
            _ = try Payload(data: body)
            return nil
        } catch {
            return error.description
        }
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
    case tooLarge(limit: Int)
    case notUTF8
    case notJSON(String)
    case notAnObject
    case missingAPS

    public var description: String {
        switch self {
        case .tooLarge(let limit): "the " + PayloadError.tooLarge(limit: limit).description
        case .notUTF8: "the payload is not UTF-8 text"
        case .notJSON(let detail): "the payload is not valid JSON: \(detail)"
        case .notAnObject: "the payload must be a JSON object"
        case .missingAPS: "the payload has no \"aps\" object, so it is not a push"
        }
    }
}

extension PushMessageError: ExitStatusProviding {
    public var exitStatus: ExitStatus { .invalidPayload }
}
