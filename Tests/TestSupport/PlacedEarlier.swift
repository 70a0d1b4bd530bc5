import Foundation
import UnitTestSupport

/// Makes a file vodapp placed look as if it had been placed earlier: its modification time set
/// back, the store's record of when it was placed (`updatedAt`) with it, and, where the record
/// vouches for the file by its change time (`ChangeTimeFingerprint`), that time as it is now:
/// setting a file's time sets its change time, which would otherwise make it the user's.
/// The store is written with Python's sqlite3, as GRDB stores dates.
public enum PlacedEarlier {
    /// `key`'s media file in `dir` (`ScratchDirectory.media`) and its record, `days` ago; with
    /// `file` false, only the record (a kept partial body's).
    public static func set(_ key: String, in dir: String, days: Double, file: Bool = true) async throws {
        let when = Date(timeIntervalSinceNow: -days * 86_400)
        let path = ScratchDirectory.media(dir, key)
        if file { try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: path) }
        try await record(key, in: dir, at: when, file: file ? path : nil)
    }

    /// The store's record of `key`: placed `when`, and its change-time fingerprint, if it has
    /// one, that of the file at `file` (and of its subtitles beside it) as they are now.
    public static func record(_ key: String, in dir: String, at when: Date?, file: String?) async throws {
        let script = """
            import sqlite3, sys, datetime, os, json
            db = sqlite3.connect(sys.argv[1])
            key, when, path = sys.argv[2], sys.argv[3], sys.argv[4]
            def ctime(p):
                n = os.stat(p).st_ctime_ns
                return "ctime:%d.%09d" % (n // 10**9, n % 10**9)
            if when:
                stamp = datetime.datetime.fromtimestamp(float(when), datetime.timezone.utc)
                db.execute("UPDATE item SET updatedAt = ? WHERE key = ?", (stamp.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], key))
            if path:
                db.execute("UPDATE item SET fingerprint = ? WHERE key = ? AND fingerprint LIKE 'ctime:%'", (ctime(path), key))
                row = db.execute("SELECT subtitles FROM item WHERE key = ?", (key,)).fetchone()
                if row and row[0]:
                    subtitles = json.loads(row[0])
                    for subtitle in subtitles:
                        beside = os.path.join(os.path.dirname(path), subtitle["name"])
                        if subtitle.get("fingerprint", "").startswith("ctime:") and os.path.exists(beside):
                            subtitle["fingerprint"] = ctime(beside)
                    db.execute("UPDATE item SET subtitles = ? WHERE key = ?", (json.dumps(subtitles), key))
            db.commit()
            """
        let run = try await runTool("python3", ["-c", script, dir + "/.vodapp/state.sqlite", key,
                                                when.map { String($0.timeIntervalSince1970) } ?? "", file ?? ""])
        guard run.exitCode == 0 else { throw PlacedEarlierError(message: run.stderr) }
    }
}

struct PlacedEarlierError: Error, CustomStringConvertible {
    let message: String
    var description: String { "could not rewrite the store: \(message)" }
}
