import Foundation

/// mpv playing files as a viewer's player would, without a window or a sound card and without
/// the user's configuration, reporting how each file ended through a Lua script (its documented
/// script events; mpv's own end-of-file messages are not an interface).
public enum MPVPlayback {
    /// A Lua script for mpv that prints one line per file as it ends: why it ended (`eof` when it
    /// played to its end), the last position it showed, the duration mpv found when it loaded
    /// it, and its path, separated by tabs after the word `ended`.
    public static let endsScript = """
    local path, duration, last = "?", nil, nil
    mp.register_event("file-loaded", function()
      path = mp.get_property("path"); duration = mp.get_property_number("duration"); last = nil
    end)
    mp.observe_property("time-pos", "number", function(_, value) if value then last = value end end)
    mp.register_event("end-file", function(event)
      io.stdout:write(string.format("ended\\t%s\\t%s\\t%s\\t%s\\n", event.reason, tostring(last), tostring(duration), path))
      io.stdout:flush()
      path, duration, last = "?", nil, nil
    end)
    """

    /// mpv's arguments to play `target` with `endsScript` at `script`. --untimed and
    /// --ao-null-untimed decode every frame and every sample as fast as they come instead of in
    /// real time, with the same end-of-file for each.
    public static func arguments(script: String, target: String) -> [String] {
        ["--vo=null", "--ao=null", "--no-config", "--really-quiet", "--untimed", "--ao-null-untimed", "--script=" + script, target]
    }

    /// Why mpv did not play the file at `path` to within 0.25 s of `seconds`, or nil when it did.
    /// Sound alone played untimed shows no position (`time-pos` stays 0): with `hasPicture`
    /// false, the end of file and the duration mpv found are what count.
    public static func problem(playing path: String, lasting seconds: Double, hasPicture: Bool = true) async -> String? {
        do {
            let script = NSTemporaryDirectory() + "/vodapp-mpv-ends-\(UUID().uuidString).lua"
            try endsScript.write(toFile: script, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: script) }
            let mpv = try await runTool("mpv", arguments(script: script, target: path))
            guard mpv.exitCode == 0 else { return "mpv exit \(mpv.exitCode): \(mpv.stderr)" }
            let ended = mpv.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
                .first { $0.count == 5 && $0[0] == "ended" }
            guard let ended, ended[1] == "eof", let last = Double(ended[2]), let found = Double(ended[3]),
                  (hasPicture ? last : found) >= seconds - 0.25 else {
                return "mpv did not play it to its end: \(mpv.stdout) \(mpv.stderr)"
            }
            return nil
        } catch {
            return "\(error)"
        }
    }
}
