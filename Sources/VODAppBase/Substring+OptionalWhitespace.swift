extension Substring {
    /// Without the spaces and tabs around it: HTTP's optional whitespace (RFC 9110 5.6.3), and
    /// nothing else. Unicode's other spaces, and a line's end, stay.
    package var withoutOptionalWhitespace: Substring {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = utf8.firstIndex(where: { !isBlank($0) }), let last = utf8.lastIndex(where: { !isBlank($0) }) else { return "" }
        return self[first...last]
    }
}
