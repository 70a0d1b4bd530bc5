import Testing
import VODAppMediaDirectory

/// Work-area names on file systems that ignore case (exFAT, FAT): no two keys may share one.
struct WorkStemTests {
    @Test func aKeyWithoutCapitalsIsItsOwnStemAndCapitalsAreSpelledOut() {
        #expect(MediaDirectory.workStem("abc-1_x") == "abc-1_x")
        #expect(MediaDirectory.workStem("ABC") == "abc.7")
        #expect(MediaDirectory.workStem("aBcDe") == "abcde.a0")
    }

    /// The attack the first scheme allowed: a lowercase key spelled like a capital key's hashed
    /// stem (`abc-a07442eb` for `ABC`) shared its partial file on exFAT.
    /// (Keys are `[A-Za-z0-9_-]`: none has the `.` a stem with capitals has.)
    @Test func noTwoKeysShareAStemIgnoringCase() {
        let keys = ["abc", "ABC", "aBc", "Abc", "abC", "abc-a07442eb", "ABC-a07442eb", "abc-7", "a", "A",
                    String(repeating: "x", count: 128), String(repeating: "X", count: 128), String(repeating: "xX", count: 64)]
        let stems = keys.map { MediaDirectory.workStem($0).lowercased() }
        #expect(Set(stems).count == keys.count, "\(Dictionary(grouping: keys) { MediaDirectory.workStem($0).lowercased() }.filter { $0.value.count > 1 })")
    }
}
