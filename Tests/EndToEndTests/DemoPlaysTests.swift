import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// What the README promises after `vodapp-push demo`: `mpv DIR/playlist.m3u8` plays every video
/// that arrived, to its end. Uses the real mpv and ffprobe (scripts/install-system-packages).
@Suite(.serialized) struct DemoPlaysTests {
    let push = VODAppRunner(tool: "vodapp-push")

    @Test func mpvPlaysTheDemosPlaylistToTheEndOfEveryVideo() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let demo = try await push.run(["demo", "--dir", dir, "--no-notify"])
        #expect(demo.exitCode == 0, "\(demo.stderr)")
        let arrived = SampleCatalogue.entries.filter { $0.bytes <= 20 << 20 }
        #expect(arrived.count == 3)

        let script = scratch.child("ends.lua")
        try MPVPlayback.endsScript.write(toFile: script, atomically: true, encoding: .utf8)
        // As the README says to play it. mpv leaves on its own after the playlist's last entry
        // (no --idle, no --keep-open): 12 s of video in well under a second.
        let mpv = try await runTool("mpv", MPVPlayback.arguments(script: script, target: dir + "/playlist.m3u8"))
        #expect(mpv.exitCode == 0, "mpv exit \(mpv.exitCode): \(mpv.stderr)")
        #expect(!mpv.stderr.contains("Failed to recognize file format"), "\(mpv.stderr)")

        // One `ended` line per video, in the playlist's order; the playlist itself ends first
        // (`redirect`: it was replaced by its entries).
        let lines: [[String]] = mpv.stdout.split(separator: "\n").map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let ended = lines.filter { $0.count == 5 && $0[0] == "ended" && $0[4] != "?" }
        #expect(ended.map { URL(fileURLWithPath: $0[4]).lastPathComponent } == arrived.map { "\($0.title) [\($0.key)].mp4" },
                "\(mpv.stdout)")
        for (line, entry) in zip(ended, arrived) {
            let clip = try #require(entry.clip)
            #expect(line[1] == "eof", "\(entry.title) did not play to its end: \(line)")
            let duration = try #require(Double(line[3]), "\(entry.title): mpv found no duration: \(line)")
            let last = try #require(Double(line[2]), "\(entry.title): mpv showed nothing: \(line)")
            #expect(abs(duration - clip.seconds) < 0.2, "\(entry.title): \(line)")
            // The last frame shown starts within a few frames (24 fps) of the end.
            #expect(last >= clip.seconds - 0.25, "\(entry.title) stopped at \(last) s of \(clip.seconds) s")
        }

        // And what ffprobe sees in each file: H.264 video, AAC audio, the source's duration.
        for entry in arrived {
            let clip = try #require(entry.clip)
            let path = "\(dir)/\(entry.title) [\(entry.key)].mp4"
            let streams = await MediaFixtures.ffprobeStreams(path)
            #expect(streams.map(\.codecType).sorted() == ["audio", "video"], "\(entry.title)")
            #expect(streams.first { $0.codecType == "video" }?.codecName == "h264", "\(entry.title)")
            let seconds = try #require(await MediaFixtures.ffprobeDuration(path), "\(entry.title): no duration")
            #expect(abs(seconds - clip.seconds) < 0.1, "\(entry.title): \(seconds) s, the source has \(clip.seconds) s")
        }
    }
}
