import Foundation
import VODAppSamples

/// A fresh directory under the system's temporary folder, removed when the test is done with it.
public final class ScratchDirectory: Sendable {
    public let path: String

    public init(_ name: String = "vodapp-test") throws {
        let base = NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
        let template = base + "/\(name)-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let created = mkdtemp(&bytes) else { throw POSIXError(.EIO) }
        path = String(cString: created)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the directory.
    public func child(_ name: String) -> String { path + "/" + name }

    /// What a user sees in `dir`: every entry whose name does not start with a dot, sorted.
    public static func visibleEntries(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The media files a user sees in `dir`: its visible entries but vodapp's playlist.
    public static func visibleMedia(_ dir: String) -> [String] {
        visibleEntries(dir).filter { $0 != "playlist.m3u8" }
    }

    /// The path of the item `key`'s file in `dir`, found by the `[key]` its default name ends
    /// with (`Title [key].ext`), or by its plain name (`key.ext`, with `--name key`); a path that
    /// does not exist when neither is there, so that the assertion on it fails with a readable path.
    public static func media(_ dir: String, _ key: String) -> String {
        let name = visibleMedia(dir).first { name in
            let stem = name.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
            return name.hasSuffix("[\(key)]") || stem.hasSuffix("[\(key)]") || name == key || stem == key
        }
        return dir + "/" + (name ?? "no file for [\(key)]")
    }

    /// Every entry below `dir`, hidden ones included, as relative paths.
    public static func allEntries(_ dir: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).sorted()
    }

    public static func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}


/// Whether the file at `path` holds exactly the first `count` bytes of sample content. A Bool, so
/// that a mismatch does not print megabytes of bytes.
public func holdsSampleBytes(_ path: String, count: Int64) -> Bool {
    guard let contents = ScratchDirectory.contents(path) else { return false }
    return contents.count == count && contents == SampleContent.bytes(count: count)
}
