import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// The progress display as a user meets it: on a real terminal (tmux) while the run lasts and
/// gone at its end; never in a pipe; and never a byte of difference on stdout.
@Suite struct ProgressDisplayTests {
    /// Three items at 100–200 kB/s, so that the run lasts about seven seconds: under a loaded CI
    /// machine, the terminal's first screen came after the shortest item of a four-second run
    /// had ended.
    private func payload(_ server: SampleServer, in scratch: ScratchDirectory) throws -> String {
        let path = scratch.child("push.json")
        try PayloadBuilder.json([
            (key: "a", title: "Tulips", url: server.url("/bytes/800000.mp4?rate=120000")),
            (key: "b", title: "Big Buck Bunny", url: server.url("/chunked/600000.mp4?rate=200000")),
            (key: "c", title: "Sunset", url: server.url("/bytes/700000.mp4?rate=100000")),
        ]).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The line of a transfer whose length is known: its title, its share done and its rate.
    private static func isKnownLengthTransfer(_ line: String) -> Bool {
        (line.contains("Tulips") || line.contains("Sunset")) && line.contains("%") && line.hasSuffix("/s")
    }

    private static func isProgress(_ line: String) -> Bool {
        line.contains("s left of the") || line.contains(" done · ")
    }

    @Test func aTerminalSeesProgressWhileItRunsAndOnlyTheSummaryAfter() async throws {
        let root = try ScratchDirectory()
        try await withSampleServer { server in
            var frame: [String] = []
            var seen: [String] = []
            var terminal: TerminalSession?
            var scratch = root
            // A second try when the terminal showed no frame: seen in about one full-suite run in
            // four on this 2-core machine, with the run itself ending "exit 0" (see the note on
            // issue 13), and once in CI with the first screen caught after the shortest transfer.
            // vodapp's display must show a frame on one of the two, and the first try's screens
            // are printed.
            for attempt in 1...2 where frame.isEmpty {
                scratch = attempt == 1 ? root : try ScratchDirectory()
                let payload = try payload(server, in: scratch)
                let command = "\(VODAppRunner.executable) \(payload) --dir \(scratch.child("media")) --json --no-notify"
                    + " > \(scratch.child("out.json")); echo \"exit $?\" > \(scratch.child("done"))"
                let session = try await TerminalSession(command, in: scratch)
                terminal = session
                let patience = ContinuousClock.now + TimeBound.duration(.seconds(20))
                while frame.isEmpty, ContinuousClock.now < patience {
                    let screen = try await session.screen()
                    // The last screen that showed anything: after the run, the display is erased.
                    if !screen.isEmpty { seen = screen }
                    // A frame once bytes flow: a line per transfer with its rate, then the total.
                    if screen.contains(where: Self.isKnownLengthTransfer) { frame = screen }
                    try await Task.sleep(for: .milliseconds(50))
                }
                if frame.isEmpty {
                    let done = (try? String(contentsOfFile: scratch.child("done"), encoding: .utf8)) ?? "(not yet)"
                    print("attempt \(attempt): no frame; the screen showed \(seen); the run: \(done)")
                }
            }
            try #require(!frame.isEmpty, "no progress frame on the terminal; it showed: \(seen)")
            let terminalShown = try #require(terminal)
            print("A frame of the progress display:\n" + frame.joined(separator: "\n"))
            // One line per transfer with its title, and a total line with the budget's time left.
            #expect(frame.contains {
                Self.isKnownLengthTransfer($0) && ($0.contains("/ 781.2 KiB") || $0.contains("/ 683.6 KiB")) && $0.hasSuffix("KiB/s")
            }, "\(frame)")
            #expect(frame.contains { $0.contains("of 3 done") && $0.contains("left of the 30 s budget") }, "\(frame)")

            try await waitUntil("the run to end", timeout: .seconds(30)) { FileManager.default.fileExists(atPath: scratch.child("done")) }
            try await Task.sleep(for: .milliseconds(200))
            let last = try await terminalShown.screen()
            #expect(!last.contains(where: Self.isProgress), "\(last)")
            #expect(try String(contentsOfFile: scratch.child("done"), encoding: .utf8) == "exit 0\n")
            let report = try #require(ScratchDirectory.contents(scratch.child("out.json")))
            #expect(report.first == UInt8(ascii: "{") && report.count > 100)
        }
    }

    @Test func aPipeSeesNoProgressAndStdoutIsTheSameEitherWay() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = try payload(server, in: scratch)
            // Through a pipe, as a webhook or a script runs it.
            let piped = try await VODAppRunner().run([payload, "--dir", scratch.child("piped"), "--json", "--no-notify"])
            #expect(piped.exitCode == 0)
            #expect(!piped.stderr.contains("\u{1B}"), "\(piped.stderr)")
            #expect(!piped.stderr.split(separator: "\n").map(String.init).contains(where: Self.isProgress))

            // On a terminal, stderr a tty and stdout a file, into an identical directory.
            let command = "cd \(scratch.path) && \(VODAppRunner.executable) \(payload) --dir \(scratch.child("tty"))"
                + " --json --no-notify > \(scratch.child("tty.json")); echo done > \(scratch.child("done"))"
            let terminal = try await TerminalSession(command, in: scratch)
            try await waitUntil("the run on the terminal to end", timeout: .seconds(30)) {
                FileManager.default.fileExists(atPath: scratch.child("done"))
            }
            _ = terminal
            let onTerminal = try String(contentsOfFile: scratch.child("tty.json"), encoding: .utf8)
            // Byte for byte, but for the elapsed time and the directory's name.
            func normalised(_ text: String) -> String {
                text.replacingOccurrences(of: #""elapsedSeconds":[0-9.e+-]+"#, with: #""elapsedSeconds":T"#, options: .regularExpression)
                    .replacingOccurrences(of: "/tty", with: "/DIR").replacingOccurrences(of: "/piped", with: "/DIR")
            }
            #expect(normalised(onTerminal) == normalised(piped.stdout))
            #expect(normalised(onTerminal).contains(#""elapsedSeconds":T"#))
        }
    }
}
