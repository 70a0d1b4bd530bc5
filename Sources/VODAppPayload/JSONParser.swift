/// A strict JSON parser (RFC 8259) that keeps objects' members in the order they are written.
///
/// Foundation's parsers are lenient where a payload must not be: they take trailing commas, and of
/// a key written twice they keep one value and never look at the other, so two receivers could read
/// one payload two ways. This parser refuses both, and anything else RFC 8259 refuses (a control
/// character in a string, a lone surrogate escape, a leading zero, text after the value), with the
/// line and column. `vodapp` and `vodapp-push` both parse with it, so they agree on every payload.
public struct JSONParser {
    /// Deeper nesting than any payload needs, shallow enough that recursion cannot exhaust a stack.
    public static let maximumDepth = 128

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    /// The value `bytes` hold: one JSON text, whitespace around it allowed.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes))
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            // RFC 8259 lets a parser refuse it; the editor that wrote it can leave it out.
            throw parser.error("a byte-order mark (EF BB BF) before the JSON: save the file as UTF-8 without one")
        }
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.error("text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard let byte = peek() else { throw error("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return try nested { (parser: inout JSONParser) throws(JSONSyntaxError) in try parser.object() }
        case UInt8(ascii: "["): return try nested { (parser: inout JSONParser) throws(JSONSyntaxError) in try parser.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("\(Self.shown(byte)) where a value should be")
        }
    }

    private mutating func nested(_ parse: (inout JSONParser) throws(JSONSyntaxError) -> JSONValue) throws(JSONSyntaxError) -> JSONValue {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("values nested more than \(Self.maximumDepth) deep") }
        defer { depth -= 1 }
        return try parse(&self)
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        position += 1
        var members: [JSONObject.Member] = []
        // Compared as code points, as RFC 8259 compares names: Swift's String equality would
        // take "é" and "e" + U+0301 for one key.
        var keys: Set<[Unicode.Scalar]> = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject(members: members))
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                if peek() == UInt8(ascii: "}") { throw trailingComma(before: "}") }
                throw peek().map { error("\(Self.shown($0)) where a key in quotes should be") } ?? error("the text ends inside an object")
            }
            let keyStart = position
            let key = try string()
            guard keys.insert(Array(key.unicodeScalars)).inserted else {
                position = keyStart
                throw error("the key \"\(Self.excerpt(key))\" appears twice in one object")
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw expected("':' after a key") }
            position += 1
            skipWhitespace()
            members.append(JSONObject.Member(key: key, value: try value()))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(JSONObject(members: members))
            default: throw expected("',' or '}' after a member")
            }
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { throw trailingComma(before: "]") }
            elements.append(try value())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw expected("',' or ']' after an element")
            }
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        position += 1
        let start = position
        // Most strings have no escape: their bytes are the text.
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 {
            position += 1
        }
        var text = Array(bytes[start..<position])
        while true {
            guard let byte = peek() else { throw error("the text ends inside a string") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: text, as: UTF8.self) else { throw error("a string that is not UTF-8") }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &text)
            case ..<0x20:
                throw error("a control character (\(Self.shown(byte))) inside a string, where it must be escaped")
            default:
                text.append(byte)
                position += 1
            }
        }
    }

    private mutating func escape(into text: inout [UInt8]) throws(JSONSyntaxError) {
        guard let byte = peek() else { throw error("the text ends inside a string") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800...0xDBFF).contains(scalar) {
                guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                    throw error("a \\u escape that is half of a surrogate pair, without its other half")
                }
                position += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("a \\u escape that is half of a surrogate pair, without its other half")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a \\u escape that is half of a surrogate pair, without its other half")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("a \\u escape that is not a character") }
            text.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            position -= 2
            let shown = (0x21...0x7E).contains(byte) ? "\\" + String(Character(Unicode.Scalar(byte))) : "a backslash before \(Self.shown(byte))"
            throw error("\(shown) is not an escape JSON has")
        }
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexDigit(byte) else { throw error("a \\u escape needs four hexadecimal digits") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, nothing else: no `+1`, `01`, `.5`,
    /// `1.`, `NaN` or `Infinity`.
    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        switch peek() {
        case UInt8(ascii: "0"):
            position += 1
            if let next = peek(), Self.isDigit(next) { throw error("a number with a leading zero") }
        case let byte? where Self.isDigit(byte):
            skipDigits()
        default:
            throw error("a '-' that starts no number")
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let byte = peek(), Self.isDigit(byte) else { throw error("a number with no digit after its decimal point") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let byte = peek(), Self.isDigit(byte) else { throw error("a number with no digit in its exponent") }
            skipDigits()
        }
        // The grammar above is a subset of what Double parses. RFC 8259 lets a parser limit the
        // range, and Foundation's refuses what overflows, so this one does too.
        guard let number = Double(String(decoding: bytes[start..<position], as: UTF8.self)), number.isFinite else {
            position = start
            throw error("a number too large to represent")
        }
        return number
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = word.utf8
        guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected) else {
            throw error("\(Self.shown(bytes[position])) where a value should be")
        }
        position += expected.count
    }

    private mutating func skipDigits() {
        while let byte = peek(), Self.isDigit(byte) { position += 1 }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    /// A trailing comma, pointed at: the parser stands at the bracket after it.
    private mutating func trailingComma(before bracket: String) -> JSONSyntaxError {
        position = bytes[..<position].lastIndex(of: UInt8(ascii: ",")) ?? position
        return error("a comma before \(bracket), with no value after it")
    }

    private func expected(_ what: String) -> JSONSyntaxError {
        guard let byte = peek() else { return error("the text ends where \(what) should be") }
        return error("\(Self.shown(byte)) where \(what) should be")
    }

    /// An error at the current position, with its line and column (in characters) counted from 1.
    private func error(_ message: String) -> JSONSyntaxError {
        let end = min(position, bytes.count)
        let lineStart = bytes[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = bytes[..<end].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let column = bytes[lineStart..<end].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return JSONSyntaxError(message: message, line: line, column: column)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A byte as an error message shows it: printable ASCII in quotes, anything else in hex.
    private static func shown(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// A key as an error message shows it: printable, and short.
    private static func excerpt(_ key: String) -> String {
        let printable = String(String.UnicodeScalarView(key.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
        return printable.count > 40 ? printable.prefix(40) + "…" : printable
    }
}

/// Why a text is not JSON, and where.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let line: Int
    public let column: Int

    public var description: String { "\(message) at line \(line), column \(column)" }
}
