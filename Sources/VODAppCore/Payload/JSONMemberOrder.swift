/// The order in which a JSON object's members are written, which Foundation's decoders forget.
///
/// A playlist's order is the publisher's (episode 1, 2, 3…) and the media player should keep it,
/// so it is read from the text. This is not a parser: the text has already been accepted by
/// `JSONDecoder`, which decides what the values are. This only walks the tokens to list the keys
/// of one member object in the order they appear, and answers nil on anything it does not expect,
/// so that the caller falls back to an order of its own instead of trusting a guess.
struct JSONMemberOrder {
    private let bytes: [UInt8]
    private var position = 0

    /// The keys of the object at `root[member]`, in text order, the first occurrence of each.
    /// When the root has `member` twice, the first is used, as `JSONDecoder` does.
    static func keys(ofMember member: String, in bytes: [UInt8]) -> [String]? {
        var scanner = JSONMemberOrder(bytes: bytes)
        return scanner.keys(ofMember: member)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func keys(ofMember member: String) -> [String]? {
        guard next() == UInt8(ascii: "{") else { return nil }
        var found: [String]?
        let done = members { key, scanner in
            if found == nil, key == member {
                guard scanner.peek() == UInt8(ascii: "{") else { return scanner.skipValue() }
                var keys: [String] = []
                var seen: Set<String> = []
                scanner.position += 1
                let complete = scanner.members { inner, innerScanner in
                    if seen.insert(inner).inserted { keys.append(inner) }
                    return innerScanner.skipValue()
                }
                found = keys
                return complete
            }
            return scanner.skipValue()
        }
        return done ? found : nil
    }

    /// Walks the members of an object whose `{` has been read, through its `}`. `visit` reads or
    /// skips each value and answers whether it could.
    private mutating func members(_ visit: (String, inout JSONMemberOrder) -> Bool) -> Bool {
        members(decodingKeys: true) { key, scanner in visit(key ?? "", &scanner) }
    }

    /// The same walk; without `decodingKeys`, keys are passed over (nil), as in a value that is
    /// skipped: see `skipString`.
    private mutating func members(decodingKeys: Bool, _ visit: (String?, inout JSONMemberOrder) -> Bool) -> Bool {
        if peek() == UInt8(ascii: "}") {
            position += 1
            return true
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else { return false }
            var key: String?
            if decodingKeys {
                guard let decoded = string() else { return false }
                key = decoded
            } else {
                guard skipString() else { return false }
            }
            guard next() == UInt8(ascii: ":"), visit(key, &self) else { return false }
            switch next() {
            case UInt8(ascii: ","):
                if endsAfterComma(UInt8(ascii: "}")) { return true }
            case UInt8(ascii: "}"): return true
            default: return false
            }
        }
    }

    private mutating func skipValue() -> Bool {
        switch peek() {
        case UInt8(ascii: "{"):
            position += 1
            return members(decodingKeys: false) { _, scanner in scanner.skipValue() }
        case UInt8(ascii: "["):
            position += 1
            if peek() == UInt8(ascii: "]") {
                position += 1
                return true
            }
            while true {
                guard skipValue() else { return false }
                switch next() {
                case UInt8(ascii: ","):
                    if endsAfterComma(UInt8(ascii: "]")) { return true }
                case UInt8(ascii: "]"): return true
                default: return false
                }
            }
        case UInt8(ascii: "\""):
            return skipString()
        case nil:
            return false
        default:
            // A number, true, false or null: everything up to the next delimiter.
            let start = position
            while position < bytes.count, !Self.isDelimiter(bytes[position]) { position += 1 }
            return position > start
        }
    }

    /// After a `,`, whether the object or array ends there: JSONDecoder accepts a trailing comma,
    /// so this must too.
    private mutating func endsAfterComma(_ closer: UInt8) -> Bool {
        guard peek() == closer else { return false }
        position += 1
        return true
    }

    /// Passes over a string token without decoding it. JSONDecoder decodes a value only when it is
    /// asked for, so a value it never reads (the later of a key written twice) may hold escapes
    /// or characters it would refuse, in its strings and its keys; they must not stop the walk.
    private mutating func skipString() -> Bool {
        guard next() == UInt8(ascii: "\"") else { return false }
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return true
            case UInt8(ascii: "\\"):
                position += 2
            default:
                position += 1
            }
        }
        return false
    }

    /// Reads a string token, escapes decoded.
    private mutating func string() -> String? {
        guard next() == UInt8(ascii: "\"") else { return nil }
        var scalars = String.UnicodeScalarView()
        var plain: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: plain, as: UTF8.self).unicodeScalars)
            plain.removeAll(keepingCapacity: true)
        }
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard position < bytes.count else { return nil }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard let unit = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(unit) {
                        // A surrogate pair is two escapes.
                        guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u"), let low = hex4(),
                              (0xDC00..<0xE000).contains(low),
                              let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                        else { return nil }
                        scalars.append(scalar)
                    } else {
                        guard let scalar = Unicode.Scalar(unit) else { return nil }
                        scalars.append(scalar)
                    }
                default:
                    return nil
                }
            default:
                plain.append(byte)
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            guard let digit = Self.hexValue(byte) else { return nil }
            value = value << 4 | digit
        }
        position += 4
        return value
    }

    /// The next significant byte, consumed.
    private mutating func next() -> UInt8? {
        let byte = peek()
        if byte != nil { position += 1 }
        return byte
    }

    /// The next significant byte, whitespace skipped.
    private mutating func peek() -> UInt8? {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        return position < bytes.count ? bytes[position] : nil
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
