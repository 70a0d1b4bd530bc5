/// The report as a sender nothing vouches for may read it.
extension DeliveryReport {
    /// This report without what only DIR's owner should learn from it: DIR's path (also where an
    /// error spells it, as `DIR`), each file's path, the size of a file that was already there,
    /// and the files retention removed. What is left is what the push named and what the
    /// sender's own servers see anyway (whether an item was fetched, and how many bytes).
    ///
    /// A listener answers an unsigned `POST /push?wait=1` with it: anyone who can reach the
    /// port could otherwise learn where the media lives, and the sizes of files under keys they
    /// guess, from a push of their own (seventh attacker trial, F7).
    public var redacted: DeliveryReport {
        var copy = self
        copy.withholdsDirectory = true
        copy.removed = []
        copy.items = items.map { item in
            var kept = item
            kept.path = nil
            if item.status != .downloaded { kept.bytes = nil }
            kept.error = item.error.map { withoutDirectory($0) }
            return kept
        }
        return copy
    }

    private func withoutDirectory(_ text: String) -> String {
        guard !directory.isEmpty, directory != "/" else { return text }
        return text.replacing(directory, with: "DIR")
    }
}
