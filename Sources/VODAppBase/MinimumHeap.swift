/// A binary min-heap: the transfer loop's queues find their next entry in O(log n), however many
/// wait, instead of scanning them all on each turn. In Base, as a data structure any layer may use.
package struct MinimumHeap<Element> {
    private var elements: [Element] = []
    private let before: (Element, Element) -> Bool

    /// - Parameter before: whether the first comes out before the second.
    package init(by before: @escaping (Element, Element) -> Bool) {
        self.before = before
    }

    package var isEmpty: Bool { elements.isEmpty }
    package var count: Int { elements.count }
    package var first: Element? { elements.first }

    package mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard before(elements[child], elements[parent]) else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    package mutating func removeFirst() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let first = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < elements.count, before(elements[left], elements[smallest]) { smallest = left }
            if right < elements.count, before(elements[right], elements[smallest]) { smallest = right }
            guard smallest != parent else { break }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    /// Every element, in no particular order, leaving the heap empty.
    package mutating func removeAll() -> [Element] {
        defer { elements = [] }
        return elements
    }
}
