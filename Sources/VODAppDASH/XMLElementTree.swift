import Foundation
import FoundationXML

/// An XML document read into elements (names without their prefixes, attributes, text),
/// bounded in element count: a DASH manifest is read whole, then walked, because its BaseURLs and
/// segment addressing are inherited down the tree.
///
/// libxml2 (through FoundationXML's `XMLParser`) does the reading: it resolves no external
/// entity and bounds entity expansion, so a hostile document cannot make it fetch or balloon.
struct XMLElementTree {
    let name: String
    let attributes: [String: String]
    /// The element's own text, trimmed (a `BaseURL`'s URL, a `Label`).
    let text: String
    let children: [XMLElementTree]

    func children(_ name: String) -> [XMLElementTree] { children.filter { $0.name == name } }
    func child(_ name: String) -> XMLElementTree? { children.first { $0.name == name } }

    /// Reads `data`; at most `limit` elements.
    static func parse(_ data: [UInt8], limit: Int) throws(DASHManifestError) -> XMLElementTree {
        let builder = Builder(limit: limit)
        let parser = XMLParser(data: Data(data))
        // Namespaces are not checked: manifests in the wild use prefixes they never declare
        // (`scte35:`, `yt:`), and players read them; an element is known by its local name.
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if builder.overLimit { throw .tooManyElements(limit: limit) }
        guard parsed, let root = builder.root else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "it ended early"
            throw .notXML(line: parser.lineNumber, reason: DASHManifestError.excerpt(reason))
        }
        return root
    }

    /// Builds the tree as the parser calls it: one open element per level.
    private final class Builder: NSObject, XMLParserDelegate {
        struct Open {
            var name: String
            var attributes: [String: String]
            var text = ""
            var children: [XMLElementTree] = []
        }

        let limit: Int
        var stack: [Open] = []
        var root: XMLElementTree?
        var count = 0
        var overLimit = false

        init(limit: Int) {
            self.limit = limit
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            count += 1
            guard count <= limit else {
                overLimit = true
                parser.abortParsing()
                return
            }
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            stack.append(Open(name: local, attributes: attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty, stack[stack.count - 1].text.utf8.count < 4096 else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let open = stack.popLast() else { return }
            let element = XMLElementTree(name: open.name, attributes: open.attributes,
                                         text: open.text.trimmingCharacters(in: .whitespacesAndNewlines), children: open.children)
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}
