import UnitTestSupport
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

    /// For one file: the same line, its position read where playback holds at the end
    /// (`--keep-open`) rather than the last one observed, which a loaded machine may not deliver
    /// before the end-of-file event (the suite beside a busy machine saw 2.39 s of 3.04).
    public static let endOfOneFileScript = """
    local done = false
    local function report(reason)
      if done then return end
      done = true
      io.stdout:write(string.format("ended\\t%s\\t%s\\t%s\\t%s\\n", reason, tostring(mp.get_property_number("time-pos")),
        tostring(mp.get_property_number("duration")), tostring(mp.get_property("path"))))
      io.stdout:flush()
    end
    mp.observe_property("eof-reached", "bool", function(_, value)
      if value then report("eof"); mp.command("quit") end
    end)
    mp.register_event("end-file", function(event) report(event.reason) end)
    """

    /// Why mpv did not play the file at `path` to within 0.25 s of `seconds`, or nil when it did.
    /// Sound alone played untimed shows no position (`time-pos` stays 0): with `hasPicture`
    /// false, the end of file and the duration mpv found are what count.
    public static func problem(playing path: String, lasting seconds: Double, hasPicture: Bool = true) async -> String? {
        do {
            let script = NSTemporaryDirectory() + "/vodapp-mpv-ends-\(UUID().uuidString).lua"
            try endOfOneFileScript.write(toFile: script, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: script) }
            let mpv = try await runTool("mpv", ["--keep-open=yes"] + arguments(script: script, target: path))
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

    /// A Lua script for mpv that prints, once the file is loaded, one line per subtitle track
    /// it has: `sub`, whether it is external (a file beside), its language and its file, by tabs.
    public static let subtitlesScript = """
    mp.register_event("file-loaded", function()
      local count = mp.get_property_number("track-list/count", 0)
      for i = 0, count - 1 do
        local track = "track-list/" .. i .. "/"
        if mp.get_property(track .. "type") == "sub" then
          io.stdout:write(string.format("sub\\t%s\\t%s\\t%s\\n", mp.get_property(track .. "external"),
            tostring(mp.get_property(track .. "lang")), tostring(mp.get_property(track .. "external-filename"))))
        end
      end
      io.stdout:flush()
      mp.command("quit")
    end)
    """

    /// The subtitle tracks mpv offers with the file at `path`, as a viewer opening it would get
    /// them (the files beside it it loads on its own): each external one's language and file name.
    public static func externalSubtitles(of path: String) async throws -> [(language: String, file: String)] {
        let script = NSTemporaryDirectory() + "/vodapp-mpv-subs-\(UUID().uuidString).lua"
        try subtitlesScript.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let mpv = try await runTool("mpv", ["--vo=null", "--ao=null", "--no-config", "--really-quiet", "--script=" + script, path])
        var tracks: [(language: String, file: String)] = []
        for line in mpv.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, fields[0] == "sub", fields[1] == "yes" else { continue }
            tracks.append((language: fields[2], file: (fields[3] as NSString).lastPathComponent))
        }
        return tracks
    }
}
