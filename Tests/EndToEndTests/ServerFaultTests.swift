import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// The server rows of the fault matrix (docs/RELIABILITY.md): one item from a misbehaving server,
/// through the built `vodapp`, asserting what a user sees: the item's status and reason, the exit
/// code, the file and its bytes, and what reached the server.
@Suite(.serialized, .timingSensitive) struct ServerFaultTests {
    let runner = VODAppRunner()

    /// One misbehaviour and what vodapp must make of it.
    struct Fault: Sendable, CustomTestStringConvertible {
        let row: String
        /// A sample-server path, or a whole URL.
        let target: String
        var budget = "5"
        let status: String
        /// Part of the item's `error`, when it has one.
        var reason: String? = nil
        /// Bytes of sample content the file must hold; nil when no file may appear.
        var bytes: Int64? = nil
        /// How many requests the server must have seen, when that is part of the behaviour.
        var requests: ClosedRange<Int>? = nil
        /// A failure delivering again cannot fix: reported `"final": true`, exit 69 rather than 75.
        var final = false
        /// More of vodapp's options.
        var options: [String] = []

        var testDescription: String { row }
    }

    static let faults: [Fault] = [
        Fault(row: "404", target: "/status/404", status: "failed", reason: "HTTP 404", requests: 1...1, final: true),
        Fault(row: "500 once, then the body", target: "/bytes/5000.mp4?fail=1&status=500", status: "downloaded",
              bytes: 5000, requests: 2...2),
        Fault(row: "500 every time", target: "/status/500", budget: "6", status: "failed", reason: "HTTP 500",
              requests: 2...6),
        Fault(row: "503 with Retry-After", target: "/bytes/5000.mp4?fail=1&status=503&retry-after=1",
              status: "downloaded", bytes: 5000, requests: 2...2),
        Fault(row: "connection refused", target: "REFUSED", budget: "6", status: "failed", reason: "connect"),
        Fault(row: "reset mid-body, then the rest", target: "/bytes/300000.mp4?fail=1&cut=150000",
              status: "downloaded", bytes: 300_000, requests: 2...2),
        Fault(row: "drip at 1 byte/s", target: "/bytes/1000.mp4?rate=1", budget: "2", status: "timedOut",
              reason: "budget"),
        // Retried six times (0.25 s to 4 s apart): a budget that outlasts every retry, so that
        // the last attempt's failure is reported rather than a retry cut by the deadline.
        Fault(row: "Content-Length longer than the body", target: "/short/100000/40000.mp4", budget: "12",
              status: "failed", reason: "40000 of 100000"),
        Fault(row: "Content-Length shorter than the body", target: "/long/1000/5000.mp4", status: "downloaded",
              bytes: 1000, requests: 1...1),
        Fault(row: "gzip Content-Encoding nobody asked for", target: "/gzip/100000.mp4", status: "downloaded",
              bytes: 100_000, requests: 1...1),
        // The compressed size is no measure of the file: the reason must not give it as one.
        Fault(row: "gzip past --max-size", target: "/gzip/3000000.mp4", status: "tooLarge",
              reason: "passed the limit as it arrived", options: ["--max-size", "1M"]),
        Fault(row: "redirect loop", target: "/loop", status: "failed", reason: "redirect", requests: 6...6, final: true),
        Fault(row: "redirect to file:", target: "/redirect?to=file:///etc/passwd", status: "failed",
              reason: "not http or https", requests: 1...1, final: true),
        Fault(row: "an oversized item behind a redirect", target: "/redirect?to=/bytes/30000000.mp4",
              status: "tooLarge", requests: 2...2),
        Fault(row: "a DNS name that does not resolve", target: "http://vodapp-fault-matrix.invalid/a.mp4", budget: "3",
              status: "failed", reason: "resolve"),
    ]

    @Test(arguments: faults)
    func aMisbehavingServer(_ fault: Fault) async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let url = switch fault.target {
            case "REFUSED": "http://127.0.0.1:\(try closedPort())/a.mp4"
            case let target where target.hasPrefix("/"): server.url(target)
            default: fault.target
            }
            let payload = PayloadBuilder.json([(key: "item", title: "Item", url: url)])
            let run = try await runner.run(["-", "--dir", dir, "--budget", fault.budget, "--json", "--no-notify"] + fault.options,
                                           stdin: payload)
            let item = try #require(run.item("item"), "\(run.stdout) \(run.stderr)")

            let status = item["status"] as? String
            // Several-fold slower under a sanitizer, a retry may be mid-answer when the budget
            // ends: cut, where the normal run sees the last attempt's failure. Only what that
            // changes is let go; every other assertion still runs.
            let cut = TimeBound.sanitizer != nil && fault.status == "failed" && status == "timedOut"
            #expect(status == fault.status || cut, "\(item)")
            if let reason = fault.reason, !cut {
                #expect((item["error"] as? String)?.contains(reason) == true, "\(item)")
            }
            // Dropping an item too large is what the user asked for, not a failure.
            let final = fault.final && !cut
            let exit: Int32 = ["downloaded", "tooLarge"].contains(fault.status) ? 0 : final ? 69 : 75
            #expect(run.exitCode == exit, "\(run.stderr)")
            if ["failed", "timedOut"].contains(fault.status) {
                #expect(item["final"] as? Bool == final, "\(item)")
            }
            #expect(run.wallSeconds < TimeBound.seconds((Double(fault.budget) ?? 0) + 0.5), "took \(run.wallSeconds) s")
            if let bytes = fault.bytes {
                #expect(ScratchDirectory.visibleMedia(dir) == ["Item [item].mp4"])
                #expect(holdsSampleBytes(ScratchDirectory.media(dir, "item"), count: bytes))
            } else {
                #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
            }
            if let requests = fault.requests, !cut {
                #expect(requests.contains(server.requests.count), "\(server.requests.map(\.target))")
            }
        }
    }

    /// A server whose Content-Length is not one number (past Int64, signed, two that differ):
    /// taken for no length, the 1,000 bytes it sends before closing were placed as the whole file,
    /// and never fetched again. The response is unusable (RFC 9112 6.3): the item fails and
    /// nothing is placed. A list of one number repeated is that number (RFC 9110 8.6).
    /// What each form means is `ResponseHeadTests`'; these show that libcurl hands the headers
    /// over as sent (a number past Int64, two headers) and that nothing reaches DIR.
    @Test(arguments: [(["99999999999999999999999999"], false), (["1000", "500"], false), (["1000, 1000"], true)])
    func aContentLengthThatIsNotOneNumberIsNeverPlaced(_ lengths: [String], usable: Bool) async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        // One answer per connection: 200 with the given Content-Length header(s), an ETag, 1,000
        // bytes of sample media, then a close.
        let body = scratch.child("body")
        try Data(SampleContent.bytes(count: 1000)).write(to: URL(fileURLWithPath: body))
        let server = try await RunningProcess("/usr/bin/python3", ["-c", #"""
            import socket, sys
            listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen(8)
            print(listener.getsockname()[1], flush=True)
            body = open(sys.argv[1], "rb").read()
            lengths = sys.argv[2:]
            while True:
                conn, _ = listener.accept()
                conn.recv(65536)
                head = "HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nContent-Type: video/mp4\r\n"
                head += "".join("Content-Length: %s\r\n" % value for value in lengths) + "Connection: close\r\n\r\n"
                conn.sendall(head.encode() + body)
                conn.close()
            """#, body] + lengths, environment: ProcessInfo.processInfo.environment)
        defer { server.signal(SIGTERM) }
        try await server.wait(for: "the server's port") { server.stdoutLines.first.flatMap { Int($0) } != nil }
        let port = try #require(server.stdoutLines.first.flatMap { Int($0) })
        let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--budget", "5"],
                                       stdin: PayloadBuilder.json([(key: "v", title: "V", url: "http://127.0.0.1:\(port)/v.mp4")]))
        if usable {
            #expect(run.exitCode == 0, "\(run.stdout)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "v"), count: 1000))
        } else {
            #expect(run.exitCode == 75, "\(run.stdout)")
            #expect(run.item("v")?["status"] as? String == "failed")
            let reason = run.item("v")?["error"] as? String ?? ""
            #expect(reason.hasPrefix("the server sent an invalid Content-Length ("), "\(reason)")
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
        }
    }

    @Test func aResetMidBodyIsResumedFromTheBytesThatArrived() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/300000.mp4?fail=1&cut=150000"))])
            let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify"], stdin: payload)
            #expect(run.exitCode == 0)
            let requests = server.requests
            try #require(requests.count == 2)
            // The retry asks for the rest only, under the validator of the first answer.
            let range = try #require(requests[1].header("range"), "\(requests[1].headers)")
            let offset = try #require(Int64(range.dropFirst("bytes=".count).dropLast()), "\(range)")
            #expect(offset > 0 && offset <= 150_000)
            #expect(requests[1].header("if-range") == "\"sample-300000\"")
            #expect(requests[1].bodyBytesSent == 300_000 - offset)
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "item"), count: 300_000))
        }
    }

    /// Forty items on a host that never accepts a connection (SYNs unanswered), then one healthy
    /// item: the dead host holds at most its share of the slots, its first connections give up
    /// after the connect timeout (a third of the time left, in whole seconds: here 2 s), and its other items then
    /// fail at once, untried, instead of each waiting for a slot and the budget.
    @Test func aHostThatNeverAcceptsCostsLittleAndTheHealthyItemArrives() async throws {
        let scratch = try ScratchDirectory()
        let dead = try UnacceptingPort()
        try await withSampleServer { server in
            let items = (0..<40).map { (key: "dead\($0)", title: "Dead \($0)", url: "http://127.0.0.1:\(dead.port)/v\($0).mp4") }
                + [(key: "healthy", title: "Healthy", url: server.url("/bytes/5000.mp4"))]
            let run = try await runner.run(["-", "--dir", scratch.path, "--budget", "10", "--json", "--no-notify"],
                                           stdin: PayloadBuilder.json(items))
            let healthy = try #require(run.item("healthy"), "\(run.stdout) \(run.stderr)")
            #expect(healthy["status"] as? String == "downloaded", "\(healthy)")
            #expect(holdsSampleBytes(ScratchDirectory.media(scratch.path, "healthy"), count: 5000))
            let endpoint = "127.0.0.1:\(dead.port)"
            var untried = 0
            for index in 0..<40 {
                let item = try #require(run.item("dead\(index)"))
                let error = item["error"] as? String ?? ""
                #expect(item["status"] as? String == "failed", "\(item)")
                #expect(item["final"] as? Bool == false, "\(item)")
                #expect(error.hasPrefix("\(endpoint) did not accept a connection within "), "\(item)")
                if error.hasSuffix("; not tried") { untried += 1 }
            }
            // Six at a time to one host; the other 34 never cost a connection.
            #expect(untried == 34)
            #expect(run.exitCode == 75)
            // One connect timeout, not the budget: before, every slot sat connecting to the end.
            #expect(run.wallSeconds < TimeBound.seconds(5), "took \(run.wallSeconds) s")
        }
    }

    @Test func aLyingContentRangeDropsTheKeptBytesAndTheNextDeliveryStartsOver() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/400000.mp4?rate=100000&ranges=lie"))])
            let cut = try await runner.run(["-", "--dir", dir, "--budget", "3", "--json", "--no-notify"], stdin: payload)
            #expect(cut.exitCode == 75, "\(cut.stdout) \(cut.stderr)")
            #expect(cut.item("item")?["status"] as? String == "timedOut")
            #expect(FileManager.default.fileExists(atPath: dir + "/.vodapp/partial/item.part"))

            let lied = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
            #expect(lied.exitCode == 75)
            #expect(lied.item("item")?["status"] as? String == "failed")
            #expect((lied.item("item")?["error"] as? String)?.contains("resumed at byte 0, not") == true, "\(lied.stdout)")
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: dir + "/.vodapp/partial/item.part"))

            let whole = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
            #expect(whole.exitCode == 0)
            #expect(server.requests.last?.header("range") == nil)
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "item"), count: 400_000))
        }
    }

    @Test func a206ToARequestForTheWholeFileIsNeverPlaced() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/5000.mp4?ranges=always206"))])
            let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify"], stdin: payload)
            #expect(run.exitCode == 75, "\(run.stdout)")
            #expect(run.item("item")?["status"] as? String == "failed")
            #expect((run.item("item")?["error"] as? String)?.contains("206 Partial Content to a request for the whole file") == true,
                    "\(run.stdout)")
            #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
            #expect(ScratchDirectory.allEntries(scratch.path + "/.vodapp/partial").isEmpty)
        }
    }

    /// Cuts a delivery of `path` after some bytes, then delivers it again.
    private func cutThenResume(_ path: String, in dir: String, on server: SampleServer) async throws -> VODAppRunner.Run {
        let payload = PayloadBuilder.json([(key: "item", title: "Item", url: server.url(path))])
        let cut = try await runner.run(["-", "--dir", dir, "--budget", "3", "--json", "--no-notify"], stdin: payload)
        #expect(cut.item("item")?["status"] as? String == "timedOut", "\(cut.stdout)")
        #expect(FileManager.default.fileExists(atPath: dir + "/.vodapp/partial/item.part"))
        let fast = PayloadBuilder.json([(key: "item", title: "Item", url: server.url(path.replacingOccurrences(of: "rate=100000&", with: "")))])
        return try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: fast)
    }

    @Test func aShort206IsKeptAndTheRestAskedForUntilTheFileIsWhole() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let run = try await cutThenResume("/bytes/400000.mp4?rate=100000&ranges=short", in: dir, on: server)
            #expect(run.exitCode == 0, "\(run.stdout) \(server.requests.map { "\($0.target) \($0.header("range") ?? "")" })")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir, "item"), count: 400_000))
            // Each answer sent half of what was asked: more than one ranged request finished it.
            let ranged = server.requests.filter { $0.header("range") != nil }
            #expect(ranged.count >= 2, "\(server.requests.map(\.target))")
        }
    }

    /// A resume must be the rest of the version kept, and no more: a 206 of another version (a
    /// server that ignores If-Range) or one that runs past its Content-Range would splice or
    /// pad the file. Every way a 206's headers can fail is `ResponseValidatorTests`'; these show
    /// the kept bytes dropped and nothing placed, for one judged by its headers and one by its
    /// body as it arrives.
    @Test(arguments: [("other-version", "part of another version (ETag"), ("overflow", "more than the bytes its Content-Range names")])
    func aResumeThatIsNotTheRestOfTheSameFileIsNeverPlaced(mode: String, reason: String) async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let run = try await cutThenResume("/bytes/400000.mp4?rate=100000&ranges=\(mode)", in: dir, on: server)
            #expect(run.exitCode == 75, "\(run.stdout)")
            #expect(run.item("item")?["status"] as? String == "failed")
            #expect((run.item("item")?["error"] as? String)?.contains(reason) == true, "\(run.stdout)")
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: dir + "/.vodapp/partial/item.part"))
        }
    }

    /// A 206 with no length ends where the connection does: short of its Content-Range's end, it
    /// is not the whole file, however the item stood before.
    /// A server that sends a few bytes per answer gets them asked for with backoff, not hundreds
    /// of times a second.
    @Test func aTrickleOf206sIsNotAskedForAtOnceEachTime() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/400000.mp4?rate=100000&ranges=trickle"))])
            _ = try await runner.run(["-", "--dir", dir, "--budget", "3", "--json", "--no-notify"], stdin: payload)
            let fast = PayloadBuilder.json([(key: "item", title: "Item", url: server.url("/bytes/400000.mp4?ranges=trickle"))])
            let run = try await runner.run(["-", "--dir", dir, "--budget", "3", "--json", "--no-notify"], stdin: fast)
            #expect(run.exitCode == 75, "\(run.stdout)")
            let ranged = server.requests.filter { $0.header("range") != nil }
            #expect(ranged.count <= 8, "\(ranged.count) ranged requests in 3 s")
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
        }
    }

    @Test func a206CutShortOfItsContentRangeIsNotPlaced() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        try await withSampleServer { server in
            let run = try await cutThenResume("/bytes/400000.mp4?rate=100000&ranges=truncated", in: dir, on: server)
            #expect(run.exitCode == 75, "\(run.stdout)")
            #expect((run.item("item")?["error"] as? String)?.contains("the connection closed after 5000 of the") == true, "\(run.stdout)")
            #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
        }
    }

    @Test func aSelfSignedCertificateIsRefusedUnlessTrustedWithCacert() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let payload = PayloadBuilder.json([(key: "item", title: "Item", url: server.baseURL + "/bytes/5000.mp4")])

        let refused = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
        // The same certificate fails the same way next time: final.
        #expect(refused.exitCode == 69)
        #expect(refused.item("item")?["final"] as? Bool == true)
        #expect(refused.item("item")?["status"] as? String == "failed")
        #expect((refused.item("item")?["error"] as? String)?.contains("certificate") == true, "\(refused.stdout)")
        #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
        #expect(server.requests.isEmpty)

        let trusted = try await runner.run(["-", "--dir", dir, "--json", "--no-notify", "--cacert", server.certificatePath],
                                           stdin: payload)
        #expect(trusted.exitCode == 0, "\(trusted.stdout) \(trusted.stderr)")
        #expect(ScratchDirectory.contents(ScratchDirectory.media(dir, "item")).map { $0 == TLSTestServer.body(count: 5000) } == true)
    }

    @Test func aRedirectFromHttpsToHttpIsNotFollowed() async throws {
        let tls = try await TLSTestServer()
        defer { tls.stop() }
        let scratch = try ScratchDirectory()
        try await withSampleServer { plain in
            let target = plain.url("/bytes/5000.mp4")
            let payload = PayloadBuilder.json([(key: "item", title: "Item", url: tls.baseURL + "/redirect?to=" + target)])
            let run = try await runner.run(["-", "--dir", scratch.path, "--json", "--no-notify", "--cacert", tls.certificatePath],
                                           stdin: payload)
            #expect(run.exitCode == 69)
            #expect(run.item("item")?["status"] as? String == "failed")
            #expect((run.item("item")?["error"] as? String)?.contains("from https to a URL that is not https") == true, "\(run.stdout)")
            #expect(tls.requests.count == 1)
            #expect(plain.requests.isEmpty)
            #expect(ScratchDirectory.visibleMedia(scratch.path).isEmpty)
        }
    }
}
