import Foundation
import Testing
import VODAppBase

/// Writing over a name only what is there when the swap happens allows: the ninth attacker
/// trial had the user's own playlist, saved between vodapp's look and its rename, replaced.
@Suite struct SafeFilePlaceTests {
    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("place-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path + "/work", withIntermediateDirectories: true)
        return path
    }

    private func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    private let ours = Array("#EXTM3U\n#ours\n".utf8)
    private let isOurs = { (current: [UInt8]?) in current.map { String(decoding: $0, as: UTF8.self).contains("#ours") } ?? false }

    @Test func aFreeNameIsTakenAndOurOwnIsReplaced() throws {
        let base = try folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let path = base + "/playlist.m3u8"
        try SafeFile.place(path, with: ours, writingFirst: base + "/work/new", replaces: isOurs)
        #expect(bytes(path) == ours)
        let again = Array("#EXTM3U\n#ours\n#2\n".utf8)
        try SafeFile.place(path, with: again, writingFirst: base + "/work/new", replaces: isOurs)
        #expect(bytes(path) == again)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/work").isEmpty)
    }

    /// What is at the name when the swap happens decides, whatever the caller saw before: the
    /// user's list stays byte for byte, under its name, and the work area is left clean.
    @Test func whatIsThereAtTheSwapIsKeptWhenItIsNotOurs() throws {
        let base = try folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let path = base + "/playlist.m3u8"
        let theirs = Array("#EXTM3U\n#EXTINF:-1,Mine\nmine.mp4\n".utf8)
        try Data(theirs).write(to: URL(fileURLWithPath: path))
        #expect(throws: SafeFile.Failure.self) {
            try SafeFile.place(path, with: ours, writingFirst: base + "/work/new", replaces: isOurs)
        }
        #expect(bytes(path) == theirs)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/work").isEmpty)
        // Through a link: the link stays a link, its target untouched.
        try FileManager.default.removeItem(atPath: path)
        try Data(theirs).write(to: URL(fileURLWithPath: base + "/kept.m3u8"))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: base + "/kept.m3u8")
        #expect(throws: SafeFile.Failure.self) {
            try SafeFile.place(path, with: ours, writingFirst: base + "/work/new", replaces: isOurs)
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == base + "/kept.m3u8")
        #expect(bytes(base + "/kept.m3u8") == theirs)
    }
}
