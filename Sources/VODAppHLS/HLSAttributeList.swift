import VODAppModel

/// An attribute list (RFC 8216 §4.2): `NAME=value,NAME="quoted, with commas",…`.
///
/// Read leniently where nothing is ambiguous: spaces after a comma, a trailing comma, and a
/// quoted value where an unquoted one is expected (or the reverse) are accepted, since a value's
/// quotes only matter for where it ends. A repeated name is refused, as §4.2 asks of clients.
struct HLSAttributeList {
    private var values: [String: String] = [:]
    let tag: String
    let line: Int

    init(_ text: Substring, tag: String, line: Int) throws(HLSPlaylistError) {
        self.tag = tag
        self.line = line
        let bytes = Array(text.utf8)
        var index = 0
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while index < bytes.count {
            while index < bytes.count, isBlank(bytes[index]) { index += 1 }
            guard index < bytes.count else { break }
            let nameStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "=") {
                let byte = bytes[index]
                guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || byte == UInt8(ascii: "-") else {
                    throw .badAttributeList(tag: tag, line: line,
                                            detail: "\"\(HLSPlaylistError.excerpt(String(decoding: bytes[nameStart...], as: UTF8.self)))\" is not NAME=value")
                }
                index += 1
            }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            guard index < bytes.count, !name.isEmpty else {
                throw .badAttributeList(tag: tag, line: line, detail: "\"\(HLSPlaylistError.excerpt(name))\" is not NAME=value")
            }
            index += 1 // "="
            let value: String
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                let valueStart = index + 1
                guard let close = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else {
                    throw .badAttributeList(tag: tag, line: line, detail: "\(name)'s quoted string is not closed")
                }
                value = String(decoding: bytes[valueStart..<close], as: UTF8.self)
                index = close + 1
                while index < bytes.count, isBlank(bytes[index]) { index += 1 }
                guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else {
                    throw .badAttributeList(tag: tag, line: line, detail: "text after \(name)'s closing quote")
                }
            } else {
                let valueStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                var valueEnd = index
                while valueEnd > valueStart, isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
                value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
            }
            guard values.updateValue(value, forKey: name) == nil else {
                throw .badAttributeList(tag: tag, line: line, detail: "\(name) appears twice")
            }
            index += 1 // "," or past the end
        }
    }

    /// The value as written, quotes removed.
    func string(_ name: String) -> String? { values[name] }

    func required(_ name: String) throws(HLSPlaylistError) -> String {
        guard let value = values[name] else { throw .missingAttribute(tag: tag, name: name, line: line) }
        return value
    }

    /// A decimal-integer that fits in an Int.
    func integer(_ name: String) throws(HLSPlaylistError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Self.decimalInteger(text), let int = Int(exactly: value) else {
            throw bad(name, text, "is not a whole number")
        }
        return int
    }

    /// A bit rate: a decimal-integer, or a decimal number (`1234.5`, which servers write though
    /// RFC 8216 asks for an integer), rounded up.
    func bitRate(_ name: String) throws(HLSPlaylistError) -> Int? {
        guard let text = values[name] else { return nil }
        if let value = Self.decimalInteger(text), let int = Int(exactly: value) { return int }
        guard let value = Self.decimalFloat(text), value < 1e15 else { throw bad(name, text, "is not a whole number") }
        return Int(value.rounded(.up))
    }

    /// A decimal-resolution: `1280x720`.
    func resolution(_ name: String) throws(HLSPlaylistError) -> HLSResolution? {
        guard let text = values[name] else { return nil }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Self.decimalInteger(parts[0]).flatMap({ Int(exactly: $0) }),
              let height = Self.decimalInteger(parts[1]).flatMap({ Int(exactly: $0) }),
              width <= 1 << 20, height <= 1 << 20 else {
            throw bad(name, text, "is not WIDTHxHEIGHT")
        }
        return HLSResolution(width: width, height: height)
    }

    /// A hexadecimal-sequence of at most 128 bits, as 16 big-endian bytes (left-padded: the
    /// sequence is an integer).
    func iv(_ name: String) throws(HLSPlaylistError) -> [UInt8]? {
        guard let text = values[name] else { return nil }
        let hex = Array(text.utf8)
        guard hex.count > 2, hex[0] == UInt8(ascii: "0"), hex[1] == UInt8(ascii: "x") || hex[1] == UInt8(ascii: "X"),
              hex.count - 2 <= 32 else {
            throw bad(name, text, "is not a 128-bit 0x-hexadecimal number")
        }
        var nibbles: [UInt8] = []
        for digit in hex.dropFirst(2) {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(digit - UInt8(ascii: "A") + 10)
            default: throw bad(name, text, "is not a 128-bit 0x-hexadecimal number")
            }
        }
        nibbles = [UInt8](repeating: 0, count: 32 - nibbles.count) + nibbles
        return stride(from: 0, to: 32, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    private func bad(_ name: String, _ value: String, _ what: String) -> HLSPlaylistError {
        .badValue(tag: tag, line: line, detail: "\(name)=\"\(HLSPlaylistError.excerpt(value))\" \(what)")
    }

    /// RFC 8216's decimal-integer: 1 to 20 digits, at most 2^64-1.
    static func decimalInteger(_ text: some StringProtocol) -> UInt64? {
        guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return UInt64(text)
    }

    /// RFC 8216's decimal-floating-point (non-negative), which includes integers: digits with at
    /// most one point. No exponent, no `inf` or `nan`, which `Double(_:)` would take.
    static func decimalFloat(_ text: some StringProtocol) -> Double? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= 40,
              bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") }),
              bytes.filter({ $0 == UInt8(ascii: ".") }).count <= 1, bytes.contains(where: { $0 != UInt8(ascii: ".") }) else {
            return nil
        }
        return Double(String(text))
    }
}
