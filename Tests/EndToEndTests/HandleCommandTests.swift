import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// `vodapp PAYLOAD` as a user or a script runs it: the built executable, its exit code, stdout,
/// stderr and the files in DIR.
@Suite(.serialized) struct HandleCommandTests {
    let runner = VODAppRunner()

    private static let samplePayloads = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../SamplePayloads").standardizedFileURL.path

    /// The shipped local sample payload, pointed at `server` instead of the default port.
    private func localSample(on server: SampleServer, in scratch: ScratchDirectory) throws -> String {
        let text = try String(contentsOfFile: Self.samplePayloads + "/vodapp-sample-local.json", encoding: .utf8)
        let path = scratch.child("payload.json")
        try text.replacingOccurrences(of: "http://127.0.0.1:\(SampleCatalogue.defaultPort)", with: server.baseURL)
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func localSamplePlaylistArrivesAndTheReportFollowsTheContract() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payload = try localSample(on: server, in: scratch)
            let run = try await runner.run([payload, "--dir", dir, "--json", "--no-notify"])

            #expect(run.exitCode == 0, "\(run.stderr)")
            let report = try #require(run.report, "stdout is not one JSON object: \(run.stdout)")
            #expect(report["result"] as? String == "newData")
            #expect(report["directory"] as? String == dir)
            #expect(report["budgetSeconds"] as? Double == 30)
            #expect((report["elapsedSeconds"] as? Double).map { $0 >= 0 && $0 < 30 } == true)
            #expect((report["notification"] as? [String: Any])?["shown"] as? Bool == false)
            #expect(run.items.count == SampleCatalogue.entries.count)

            for entry in SampleCatalogue.entries {
                let item = try #require(run.item(entry.key))
                #expect(item["title"] as? String == entry.title)
                #expect(item["url"] as? String == server.url(entry.path))
                if entry.bytes > 20 * 1024 * 1024 {
                    #expect(item["status"] as? String == "tooLarge")
                    #expect(item["path"] == nil)
                    #expect((item["error"] as? String)?.isEmpty == false)
                } else {
                    let path = dir + "/" + entry.title + " [" + entry.key + "].mp4"
                    #expect(item["status"] as? String == "downloaded")
                    #expect(item["path"] as? String == path)
                    #expect(item["bytes"] as? Int64 == entry.bytes)
                    #expect(item["httpStatus"] as? Int == 200)
                    #expect(item["error"] == nil)
                    let clip = try #require(entry.clip, "\(entry.title) arrives, so it must be a real clip")
                    #expect(item["bytes"] as? Int == SampleMedia.bytes(named: clip.name)?.count)
                    #expect(holdsSampleMedia(path, named: clip.name))
                }
            }
            #expect(ScratchDirectory.visibleMedia(dir).count == 3)
        }
    }

    @Test func payloadFromStandardInputGivesAHumanSummary() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "k1", title: "Tulips", url: server.url("/bytes/1000.mp4"))])
            let run = try await runner.run(["-", "--dir", scratch.path, "--no-notify"], stdin: payload)
            #expect(run.exitCode == 0)
            #expect(run.stdout.contains("downloaded      Tulips (1000 B) -> \(scratch.path)/Tulips [k1].mp4"))
            #expect(run.stdout.contains("newData: 1 downloaded in"))
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "k1"), count: 1000))
        }
    }

    /// `vodapp -` on a terminal says it is waiting for a payload there: a new user saw nothing
    /// until the budget ran out. On a pipe it says nothing (the test above).
    @Test func standardInputOnATerminalSaysWhatItWaitsFor() async throws {
        let scratch = try ScratchDirectory()
        // script(1) gives the child a terminal on stdin; /dev/null behind it ends the payload.
        let run = try await runTool("script", ["-qec", "\(VODAppRunner.executable) - --dir \(scratch.child("media")) --no-notify --budget 3",
                                               "/dev/null"], environment: VODAppRunner.environment())
        #expect(run.stdout.hasPrefix("vodapp: reading the payload from the terminal: paste it, then Ctrl-D (the budget, 3 s, bounds the wait)"),
                "\(run.stdout)")
    }

    @Test func everyWholePayloadRejectionExits65WritesNothingAndRequestsNothing() async throws {
        try await withSampleServer { server in
            let url = server.url("/bytes/10.mp4")
            let rejected: [(String, Data)] = [
                ("not UTF-8", Data([0x7B, 0xFF, 0x7D])),
                ("not JSON", Data("{\"aps\": ".utf8)),
                ("empty", Data()),
                ("not an object", Data("[{\"aps\": {\"content-available\": 1}}]".utf8)),
                ("no aps", PayloadBuilder.json(object: ["playlist": ["k": ["title": "T", "url": url]]])),
                ("content-available 0", PayloadBuilder.json(object: ["aps": ["content-available": 0], "playlist": ["k": ["title": "T", "url": url]]])),
                ("alert only", PayloadBuilder.json(object: ["aps": ["alert": "hi"], "playlist": ["k": ["title": "T", "url": url]]])),
                ("no playlist", PayloadBuilder.json(object: ["aps": ["content-available": 1]])),
                ("playlist not an object", PayloadBuilder.json(object: ["aps": ["content-available": 1], "playlist": [url]])),
                ("every item invalid", PayloadBuilder.json([(key: "../x", title: "T", url: url), (key: "ok", title: "T", url: "file:///etc/passwd")])),
                ("over 1 MiB", PayloadBuilder.json([(key: "k", title: String(repeating: "t", count: 1 << 20), url: url)])),
            ]
            for (name, payload) in rejected {
                let scratch = try ScratchDirectory()
                let dir = scratch.child("media")
                let file = scratch.child("payload.json")
                _ = FileManager.default.createFile(atPath: file, contents: payload)
                let run = try await runner.run([file, "--dir", dir, "--json"])
                #expect(run.exitCode == 65, "\(name): exit \(run.exitCode)")
                #expect(run.stdout.isEmpty, "\(name)")
                let lines = run.stderr.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].hasPrefix("vodapp: invalid payload: "), "\(name): \(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: dir), "\(name) created DIR")
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test func hostileKeysAndURLsAreInvalidAndCauseNoRequest() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let url = server.url("/bytes/10.mp4")
            let payload = PayloadBuilder.json([
                (key: "../x", title: "Up", url: url),
                (key: "a/b", title: "Slash", url: url),
                (key: "", title: "Empty", url: url),
                (key: String(repeating: "k", count: 129), title: "Long", url: url),
                (key: "file", title: "File", url: "file:///etc/passwd"),
                (key: "ftp", title: "FTP", url: "ftp://127.0.0.1/a.mp4"),
                (key: "relative", title: "Relative", url: "/bytes/10.mp4"),
                (key: "good", title: "Good", url: url),
            ])
            let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
            // The valid item is fetched, and the run still says the payload has a bug.
            #expect(run.exitCode == 65)
            #expect(run.items.count == 8)
            #expect(run.items.filter { $0["status"] as? String == "invalid" }.count == 7)
            #expect(run.item("good")?["status"] as? String == "downloaded")
            #expect(server.requests.count == 1)
            // Nothing was written beside DIR (`../x` would have landed there).
            #expect(ScratchDirectory.allEntries(scratch.path).allSatisfy { $0.hasPrefix("media") })
            #expect(ScratchDirectory.visibleMedia(dir) == ["Good [good].mp4"])

            // A person's summary names each invalid item's key, the thing to fix.
            let summary = try await runner.run(["-", "--dir", dir, "--no-notify"], stdin: payload)
            #expect(summary.exitCode == 65)
            #expect(summary.stdout.contains("invalid         Up (key \"../x\"): key must be"), "\(summary.stdout)")
            #expect(summary.stdout.contains("invalid         FTP (key \"ftp\"): "), "\(summary.stdout)")
        }
    }

    @Test func aFailureThatMayPassLaterExits75AndOneThatCannotExits69() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let good = (key: "good", title: "Good", url: server.url("/bytes/2000.mp4"))
            let gone = (key: "gone", title: "Gone", url: server.url("/status/404"))
            let busy = (key: "busy", title: "Busy", url: server.url("/status/503"))

            let final = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify"],
                                             stdin: PayloadBuilder.json([good, gone]))
            #expect(final.exitCode == 69, "\(final.stdout)")
            #expect(final.report?["result"] as? String == "newData")
            #expect(final.item("gone")?["status"] as? String == "failed")
            #expect(final.item("gone")?["httpStatus"] as? Int == 404)
            #expect(final.item("gone")?["final"] as? Bool == true)
            #expect(final.item("good")?["final"] == nil)
            #expect(ScratchDirectory.visibleMedia(scratch.path) == ["Good [good].mp4"])

            // One failure a later delivery may fix is enough for a script to try again.
            let temporary = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify", "--budget", "5"],
                                                 stdin: PayloadBuilder.json([good, gone, busy]))
            #expect(temporary.exitCode == 75, "\(temporary.stdout)")
            #expect(temporary.item("busy")?["status"] as? String == "failed")
            #expect(temporary.item("busy")?["final"] as? Bool == false)
            #expect(temporary.item("gone")?["final"] as? Bool == true)
        }
    }

    @Test func stallsBeforeHeadersAndMidBodyAreCutWithinTheBudget() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([
                (key: "headers", title: "Silent", url: server.url("/stall-headers")),
                (key: "body", title: "Half", url: server.url("/stall-body/1000000.mp4")),
                (key: "good", title: "Good", url: server.url("/bytes/1000.mp4")),
            ])
            let run = try await runner.run(["-", "--dir", scratch.path, "--budget", "3", "--json", "--no-notify"], stdin: payload)
            #expect(run.wallSeconds < TimeBound.seconds(3.5), "the run took \(run.wallSeconds) s")
            #expect(run.exitCode == 75)
            #expect(run.item("headers")?["status"] as? String == "timedOut")
            #expect(run.item("body")?["status"] as? String == "timedOut")
            #expect(run.item("body")?["httpStatus"] as? Int == 200)
            // Said in a person's units: where each was when the budget ran out.
            #expect(run.item("headers")?["error"] as? String == "the budget ran out before the server answered")
            #expect(run.item("body")?["error"] as? String == "the budget ran out after 488.3 KiB; nothing could be kept to resume (no validator or no size)",
                    "\(run.item("body") ?? [:])")
            #expect(run.item("good")?["status"] as? String == "downloaded")
            #expect(ScratchDirectory.visibleMedia(scratch.path) == ["Good [good].mp4"])
            // Nothing cut here could be kept (no validator, or no byte), and the placed file's
            // body is gone from the work area, which exists: this can fail.
            #expect(FileManager.default.fileExists(atPath: scratch.path + "/.vodapp/partial"))
            #expect(ScratchDirectory.allEntries(scratch.path + "/.vodapp/partial").isEmpty)
        }
    }

    /// Each file is placed and recorded as soon as it is whole and durable, not when the whole
    /// playlist ends: a small item can be watched while a large one is still arriving.
    @Test func aSmallItemIsPlacedAndRecordedWhileALargeOneIsStillArriving() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let large: Int64 = 4 << 20
        try await withSampleServer { server in
            let payload = scratch.child("payload.json")
            try PayloadBuilder.json([
                (key: "large", title: "Large", url: server.url("/bytes/\(large).mp4?rate=\(1 << 19)")),
                (key: "small", title: "Small", url: server.url("/bytes/5000.mp4")),
            ]).write(to: URL(fileURLWithPath: payload))
            let process = try await RunningProcess(VODAppRunner.executable, [payload, "--dir", dir, "--json", "--no-notify"],
                                                   environment: VODAppRunner.environment())
            try await process.wait(for: "the small item's file") {
                FileManager.default.fileExists(atPath: ScratchDirectory.media(dir, "small"))
            }
            let status = try await runner.run(["status", "--dir", dir, "--json"])
            let largeSent = server.requests.first { $0.target.hasPrefix("/bytes/\(large)") }?.bodyBytesSent ?? 0
            #expect(process.isRunning)
            #expect(largeSent < large, "the large item had \(largeSent) bytes sent")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "small"), count: 5000))
            let recorded = (status.report?["items"] as? [[String: Any]] ?? []).first { $0["key"] as? String == "small" }
            #expect(recorded?["state"] as? String == "fetched", "\(status.stdout)")
            #expect(try await process.exitStatus() == 0)
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "large"), count: large))
        }
    }

    @Test func missingPayloadFileExits66() async throws {
        let run = try await runner.run(["/nonexistent/payload.json", "--dir", "/tmp"])
        #expect(run.exitCode == 66)
        #expect(run.stderr == "vodapp: cannot read payload from /nonexistent/payload.json: No such file or directory\n")
    }

    @Test(arguments: [
        ["p.json", "--budget", "0"], ["p.json", "--budget", "soon"], ["p.json", "--max-size", "12X"],
        ["p.json", "--jobs", "0"], ["p.json", "--frobnicate"], ["p.json", "-q", "-v"], [],
        // Found by the attacker trial: hex and signed seconds, an empty DIR, a FIFO for --cacert,
        // ports outside 1-65535.
        ["p.json", "--budget", "0x10"], ["p.json", "--budget", "+5"], ["p.json", "--dir", ""],
        ["p.json", "--cacert", "/dev/stdin"], ["poll", "http://127.0.0.1:65536/"], ["poll", "http://127.0.0.1:0/"],
        ["listen", "--udp", "nope"],
        // Found by the new-user trial: a negative count is a bad value, not a missing one, and a
        // fraction of a byte is no size.
        ["p.json", "--max-size", "-5"], ["p.json", "--jobs", "-1"], ["p.json", "--max-size", "1.5"], ["listen", "--parallel", "-3"],
    ])
    func badCommandLinesExit64(arguments: [String]) async throws {
        let run = try await runner.run(arguments)
        #expect(run.exitCode == 64, "\(arguments): \(run.stderr)")
        #expect(run.stdout.isEmpty)
        // One line, as every other error, that says where to read more.
        #expect(run.stderr.hasPrefix("vodapp: ") && run.stderr.hasSuffix(" --help')\n") && run.stderr.count { $0 == "\n" } == 1,
                "\(arguments): \(run.stderr)")
    }

    /// A misspelt command would read as a payload file that is not there; the error says which
    /// command it likely was.
    @Test func aMisspeltCommandIsNamed() async throws {
        let forget = try await runner.run(["forgt", "k"])
        #expect(forget.exitCode == 64)
        #expect(forget.stderr == "vodapp: 'forgt' is neither a command nor a payload file; did you mean 'forget'? (see 'vodapp --help')\n",
                "\(forget.stderr)")
        let scratch = try ScratchDirectory()
        let status = try await runner.run(["stauts", "--dir", scratch.path])
        #expect(status.exitCode == 64)
        #expect(status.stderr.contains("'stauts' is neither a command nor a payload file; did you mean 'status'?"), "\(status.stderr)")
        #expect(ScratchDirectory.allEntries(scratch.path).isEmpty)
        let bad = try await runner.run(["p.json", "--jobs", "0"])
        #expect(bad.stderr == "vodapp: --jobs must be between 1 and 256, not 0 (see 'vodapp handle --help')\n", "\(bad.stderr)")
    }

    /// What is wrong with an option is said in words, not as a parser's confusion: a negative
    /// budget is not "a missing value", and a cookie file libcurl would skip silently is refused.
    @Test func badOptionValuesAreNamedWithWhatIsWrong() async throws {
        let scratch = try ScratchDirectory()
        let negative = try await runner.run(["-", "--budget", "-1"], stdin: Data())
        #expect(negative.exitCode == 64)
        #expect(negative.stderr.contains("The value '-1' is invalid for '--budget <seconds>': must be a number of seconds above 0"),
                "\(negative.stderr)")
        let size = try await runner.run(["-", "--max-size", "12X"], stdin: Data())
        #expect(size.exitCode == 64)
        #expect(size.stderr.contains("The value '12X' is invalid for '--max-size <size>': must be a byte count, optionally with K, M or G"),
                "\(size.stderr)")
        let notCookies = scratch.child("cookies.json")
        try #"{"cookies": [{"name": "session", "value": "x"}]}"#.write(toFile: notCookies, atomically: true, encoding: .utf8)
        let cookies = try await runner.run(["-", "--cookies", notCookies], stdin: Data())
        #expect(cookies.exitCode == 64)
        #expect(cookies.stderr.contains("no cookie in the Netscape format"), "\(cookies.stderr)")
    }

    @Test func unusableDirectoryExits73() async throws {
        let scratch = try ScratchDirectory()
        let blocker = scratch.child("file")
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
        let payload = PayloadBuilder.json([(key: "k", title: "T", url: "http://127.0.0.1:1/a.mp4")])
        let run = try await runner.run(["-", "--dir", blocker + "/media", "--no-notify"], stdin: payload)
        #expect(run.exitCode == 73)
        #expect(run.stderr.hasPrefix("vodapp: cannot use \(blocker)/media for media: "))
    }

    @Test func maxSizeOptionMovesTheLimit() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([
                (key: "small", title: "Small", url: server.url("/bytes/1024.mp4")),
                (key: "big", title: "Big", url: server.url("/chunked/1025.mp4")),
            ])
            let run = try await runner.run(["-", "--dir", scratch.path, "--max-size", "1K", "--json", "--no-notify"], stdin: payload)
            #expect(run.exitCode == 0)
            #expect(run.item("small")?["status"] as? String == "downloaded")
            #expect(run.item("big")?["status"] as? String == "tooLarge")
            #expect(ScratchDirectory.visibleMedia(scratch.path) == ["Small [small].mp4"])
        }
    }

    @Test func shippedRejectedSamplesExit65() async throws {
        let dir = Self.samplePayloads + "/rejected"
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }
        #expect(files.count == 5)
        for file in files {
            let scratch = try ScratchDirectory()
            let run = try await runner.run([dir + "/" + file, "--dir", scratch.child("media")])
            #expect(run.exitCode == 65, "\(file)")
            #expect(!FileManager.default.fileExists(atPath: scratch.child("media")), "\(file)")
        }
    }

    @Test func shippedLocalSampleIsTheSampleServersPayload() throws {
        let shipped = try String(contentsOfFile: Self.samplePayloads + "/vodapp-sample-local.json", encoding: .utf8)
        #expect(shipped == SampleCatalogue.payload(baseURL: "http://127.0.0.1:\(SampleCatalogue.defaultPort)"))
    }
}

/// `vodapp get URL…`: plain URLs fetched as one push of them would be.
@Suite(.serialized) struct GetCommandTests {
    let runner = VODAppRunner()

    @Test func plainURLsAreFetchedOnceUnderTheirTitles() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let run = try await runner.run(["get", server.url("/bytes/1500.mp4"), server.url("/bytes/2500.mp4"), "--title", "First",
                                            "--dir", dir, "--json", "--no-notify"])
            #expect(run.exitCode == 0, "\(run.stderr)")
            #expect(run.items.map { $0["status"] as? String } == ["downloaded", "downloaded"])
            #expect(run.items.map { $0["title"] as? String } == ["First", "2500"])
            let key = try #require(run.items.first?["key"] as? String)
            #expect(key.hasPrefix("1500-"), "\(key)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, key), count: 1500))

            // The same URL again is the same item: nothing is fetched twice.
            let again = try await runner.run(["get", server.url("/bytes/1500.mp4"), "--dir", dir, "--json", "--no-notify"])
            #expect(again.items.first?["status"] as? String == "alreadyPresent")
            #expect(server.requests.count == 2)

            let bad = try await runner.run(["get", "ftp://example.com/a.mp4", server.url("/bytes/100.mp4"), "--dir", dir, "--json", "--no-notify"])
            #expect(bad.exitCode == 65)
            #expect(bad.items.map { $0["status"] as? String } == ["invalid", "downloaded"])
        }
    }

    @Test func aURLWhereAPayloadFileGoesIsPointedAtGet() async throws {
        let run = try await runner.run(["https://example.com/clip.mp4"])
        #expect(run.exitCode == 64)
        #expect(run.stderr == "vodapp: 'https://example.com/clip.mp4' is a URL, not a payload file: 'vodapp get URL' fetches it (see 'vodapp get --help')\n")
        let titles = try await runner.run(["get", "https://example.com/a.mp4", "--title", "A", "--title", "B"])
        #expect(titles.exitCode == 64)
        #expect(titles.stderr.contains("2 --title for 1 URL: each --title names the URL in its place"), "\(titles.stderr)")
    }
}
