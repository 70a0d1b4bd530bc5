import CLibXML2
import Foundation
import VODAppBase

/// An XML document read into elements (names without their prefixes, attributes, text),
/// bounded in element count: a DASH manifest is read whole, then walked, because its BaseURLs and
/// segment addressing are inherited down the tree.
///
/// libxml2's reader does the reading (`CLibXML2`, loaded with the first manifest): it reads no
/// external DTD, substitutes no entity and fetches nothing, and a document that declares a DTD
/// is refused at its DOCTYPE, before its first element, whatever its encoding: the look for
/// `<!DOCTYPE` in the bytes (`DASHManifestParser.declaresDTD`) cannot see one written in UTF-7
/// or EBCDIC, which libxml2 decodes, and whose entities, expanded in attribute values, took a
/// 789 KB manifest to 5 GB (eleventh attacker trial).
struct XMLElementTree {
    let name: String
    let attributes: [String: String]
    /// The element's own text, trimmed (a `BaseURL`'s URL, a `Label`).
    let text: String
    let children: [XMLElementTree]

    func children(_ name: String) -> [XMLElementTree] { children.filter { $0.name == name } }
    func child(_ name: String) -> XMLElementTree? { children.first { $0.name == name } }

    /// An element still open while its children are read.
    private struct Open {
        var name: String
        var attributes: [String: String]
        var text = ""
        var children: [XMLElementTree] = []
    }

    /// Reads `data`; at most `limit` elements.
    static func parse(_ data: [UInt8], limit: Int) throws(DASHManifestError) -> XMLElementTree {
        var why = [CChar](repeating: 0, count: 512)
        guard vod_xml_load(&why, why.count) == 0 else {
            throw .notXML(line: 0, reason: DASHManifestError.excerpt("libxml2 cannot be used: " + String(writtenInto: why)))
        }
        // libxml2 reads the bytes where they are: the reader lives inside this closure.
        let result: Result<XMLElementTree, DASHManifestError> = data.withUnsafeBytes { bytes in
            guard let reader = vod_xml_reader_new(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count)) else {
                return .failure(.notXML(line: 0, reason: "libxml2 has no memory for it"))
            }
            defer { vod_xml_reader_free(reader) }
            return read(reader, limit: limit)
        }
        return try result.get()
    }

    /// The tree, node by node: one open element per level.
    private static func read(_ reader: OpaquePointer, limit: Int) -> Result<XMLElementTree, DASHManifestError> {
        var stack: [Open] = []
        var root: XMLElementTree?
        var count = 0
        func close() {
            guard let open = stack.popLast() else { return }
            let element = XMLElementTree(name: open.name, attributes: open.attributes,
                                         text: open.text.trimmingCharacters(in: .whitespacesAndNewlines), children: open.children)
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
        while true {
            switch vod_xml_reader_read(reader) {
            case 0:
                guard stack.isEmpty, let root else { return .failure(.notXML(line: Int(vod_xml_reader_line(reader)), reason: "it ended early")) }
                return .success(root)
            case 1:
                break
            default:
                var message = [CChar](repeating: 0, count: 512)
                let line = vod_xml_reader_error(&message, message.count)
                return .failure(.notXML(line: Int(line > 0 ? line : vod_xml_reader_line(reader)),
                                        reason: DASHManifestError.excerpt(String(writtenInto: message))))
            }
            switch vod_xml_reader_node_type(reader) {
            case Int32(VOD_XML_ELEMENT):
                count += 1
                guard count <= limit else { return .failure(.tooManyElements(limit: limit)) }
                // Namespaces are not checked: manifests in the wild use prefixes they never
                // declare (`scte35:`, `yt:`), and players read them; an element is known by its
                // local name.
                let qualified = text(vod_xml_reader_name(reader))
                let local = qualified.split(separator: ":").last.map(String.init) ?? qualified
                let empty = vod_xml_reader_is_empty_element(reader) == 1
                var attributes: [String: String] = [:]
                while vod_xml_reader_next_attribute(reader) == 1 {
                    attributes[text(vod_xml_reader_name(reader))] = text(vod_xml_reader_value(reader))
                }
                stack.append(Open(name: local, attributes: attributes))
                if empty { close() }
            case Int32(VOD_XML_END_ELEMENT):
                close()
            case Int32(VOD_XML_DOCUMENT_TYPE):
                return .failure(.declaresEntities)
            case Int32(VOD_XML_TEXT), Int32(VOD_XML_CDATA), Int32(VOD_XML_WHITESPACE), Int32(VOD_XML_SIGNIFICANT_WHITESPACE):
                guard !stack.isEmpty, stack[stack.count - 1].text.utf8.count < 4096 else { continue }
                stack[stack.count - 1].text += text(vod_xml_reader_value(reader))
            default:
                continue
            }
        }
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}
