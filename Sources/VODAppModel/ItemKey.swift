/// An item's key: the payload's name for it, and part of its file names, its work files and its
/// records. So its grammar is the one thing every layer must agree on, from the payload's rules to
/// the removal of a file: `[A-Za-z0-9_-]{1,128}`, nothing else.
public enum ItemKey {
    /// Whether `key` may name an item; a key that may not must never reach the file system.
    public static func isValid(_ key: String) -> Bool {
        (1...128).contains(key.utf8.count) && key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
