import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// `vodapp poll URL` and `vodapp status`, and a DIR that runs out of space.
@Suite(.serialized) struct PollAndStatusTests {
    let runner = VODAppRunner()

    @Test func pollWithTheRightTokenDelivers() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let run = try await runner.run(["poll", server.url("/payload.json?token=s3cret"), "--dir", scratch.path, "--json", "--no-notify"],
                                           environment: VODAppRunner.environment(extra: ["VODAPP_TOKEN": "s3cret"]))
            #expect(run.exitCode == 0, "\(run.stderr)")
            #expect(run.report?["result"] as? String == "newData")
            #expect(ScratchDirectory.visibleMedia(scratch.path).count == 3)
            #expect(server.requests.first?.header("authorization") == "Bearer s3cret")
        }
    }

    @Test func theTokenNeverReachesTheLogsOrTheStore() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let token = "tok-\(UInt64.random(in: 1...UInt64.max))"
            let run = try await runner.run(["poll", server.url("/payload.json?token=expected"), "--dir", scratch.path, "--verbose"],
                                           environment: VODAppRunner.environment(extra: ["VODAPP_TOKEN": token]))
            #expect(run.exitCode == 77)
            #expect(server.requests.first?.header("authorization") == "Bearer \(token)")
            #expect(!run.stderr.contains(token) && !run.stdout.contains(token))
            let status = try await runner.run(["status", "--dir", scratch.path, "--json"])
            #expect(!status.stdout.contains(token))
            for file in ["state.sqlite", "state.sqlite-wal"] {
                let bytes = FileManager.default.contents(atPath: scratch.path + "/.vodapp/" + file) ?? Data()
                #expect(bytes.firstRange(of: Data(token.utf8)) == nil, "\(file)")
            }
        }
    }

    @Test func aRejectedTokenExits77AndStatusShowsIt() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let run = try await runner.run(["poll", server.url("/payload.json?token=s3cret"), "--token", "guess", "--dir", scratch.path, "--json"])
            #expect(run.exitCode == 77)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr == "vodapp: 127.0.0.1 rejected the token (HTTP 401): check --token or VODAPP_TOKEN\n")
            #expect(server.requests.count == 1)

            let status = try await runner.run(["status", "--dir", scratch.path, "--json"])
            #expect(status.exitCode == 0)
            let deliveries = try #require(status.report?["deliveries"] as? [[String: Any]])
            #expect(deliveries.first?["result"] as? String == "tokenRejected")
            #expect(deliveries.first?["source"] as? String == "poll")
        }
    }

    @Test func theTokenIsNotSentToTheHostARedirectLeadsTo() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            // Same server, another host name: libcurl treats it as another host.
            let elsewhere = "http://localhost:\(server.port)/payload.json"
            let run = try await runner.run(["poll", server.url("/redirect?to=\(elsewhere)"), "--token", "s3cret",
                                            "--dir", scratch.path, "--json", "--no-notify"])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let first = try #require(server.requests.first)
            #expect(first.target.hasPrefix("/redirect"))
            #expect(first.header("authorization") == "Bearer s3cret")
            let redirected = try #require(server.requests.first { $0.target == "/payload.json" })
            #expect(redirected.header("authorization") == nil, "the token followed the redirect to another host")
        }
    }

    /// A poll whose redirect leads to a host that answers 404 names that host, not the one
    /// asked, which answered 302.
    @Test func aFailedPollNamesTheHostThatAnswered() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let elsewhere = "http://localhost:\(server.port)/status/404"
            let run = try await runner.run(["poll", server.url("/redirect?to=\(elsewhere)"), "--dir", scratch.path, "--no-notify"])
            #expect(run.exitCode == 75)
            #expect(run.stderr == "vodapp: \(elsewhere) answered HTTP 404\n", "\(run.stderr)")
            // And `status` has it among the deliveries, with why.
            let status = try await runner.run(["status", "--dir", scratch.path])
            #expect(status.stdout.contains("poll \(server.url("/redirect?to=\(elsewhere)")): failed, 0 items"), "\(status.stdout)")
            #expect(status.stdout.contains("(\(elsewhere) answered HTTP 404)"), "\(status.stdout)")
        }
    }

    /// A captive portal or a login page answers 200 with HTML: the network's state, polled
    /// again later (75), not an invalid payload (65); a JSON payload that is wrong stays 65.
    @Test func aWebPageInsteadOfThePayloadIsATemporaryFailure() async throws {
        let scratch = try ScratchDirectory()
        let nginx = try await NginxServer()
        try "<!DOCTYPE html>\n<html><body><form>Sign in to the Wi-Fi</form></body></html>\n"
            .write(toFile: nginx.root + "/portal.html", atomically: true, encoding: .utf8)
        try #"{"aps":{"content-available":0},"playlist":{}}"#.write(toFile: nginx.root + "/wrong.json", atomically: true, encoding: .utf8)
        let page = try await runner.run(["poll", nginx.url("/portal.html"), "--dir", scratch.path, "--no-notify"])
        #expect(page.exitCode == 75)
        #expect(page.stderr == "vodapp: \(nginx.url("/portal.html")) answered a web page, not a payload: a login page or a captive portal? (it will be polled again)\n", "\(page.stderr)")
        let wrong = try await runner.run(["poll", nginx.url("/wrong.json"), "--dir", scratch.path, "--no-notify"])
        #expect(wrong.exitCode == 65, "\(wrong.stderr)")
        nginx.stop()
    }

    @Test func statusListsWhatIsInDIRWhatIsPartialAndWhatFailed() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([
                (key: "done", title: "Done", url: server.url("/bytes/1000.mp4")),
                // 16 s at this rate: cut by the budget, which leaves the small item time to
                // arrive on a machine a build loads (1.2 s did not).
                (key: "cut", title: "Cut", url: server.url("/bytes/\(4 << 20).mp4?rate=\(256 << 10)")),
                (key: "broken", title: "Broken", url: server.url("/status/404")),
                (key: "busy", title: "Busy", url: server.url("/status/500")),
            ])
            let run = try await runner.run(["-", "--dir", scratch.path, "--no-notify", "--budget", "5"], stdin: payload)
            #expect(run.exitCode == 75)

            let status = try await runner.run(["status", "--dir", scratch.path, "--json"])
            let items = try #require(status.report?["items"] as? [[String: Any]])
            func item(_ key: String) -> [String: Any]? { items.first { $0["key"] as? String == key } }
            #expect(item("done")?["state"] as? String == "fetched")
            #expect(item("done")?["path"] as? String == ScratchDirectory.media(scratch.path, "done"))
            #expect(item("done")?["bytes"] as? Int == 1000)
            #expect(item("cut")?["state"] as? String == "partial")
            #expect((item("cut")?["bytes"] as? Int).map { $0 > 0 } == true)
            #expect(item("cut")?["etag"] as? String == "\"sample-\(4 << 20)\"")
            #expect(item("broken")?["state"] as? String == "failed")
            #expect(item("broken")?["attempts"] as? Int == 1)
            // A 404 is final: no next attempt is worth waiting for.
            #expect(item("broken")?["final"] as? Bool == true)
            #expect(item("broken")?["nextAttemptAt"] == nil)
            #expect(item("busy")?["state"] as? String == "failed")
            #expect(item("busy")?["final"] as? Bool == false)
            #expect(item("busy")?["nextAttemptAt"] != nil)
            let deliveries = try #require(status.report?["deliveries"] as? [[String: Any]])
            #expect(deliveries.first?["source"] as? String == "stdin")
            #expect(deliveries.first?["result"] as? String == "newData")

            let human = try await runner.run(["status", "--dir", scratch.path])
            #expect(human.stdout.contains("In DIR (1):"))
            #expect(human.stdout.contains("Partial, resumed by the next delivery (a listener retries on its own) (1):"))
            #expect(human.stdout.contains("Failed (2):"))
            #expect(human.stdout.contains("Broken: the server answered HTTP 404 (attempt 1, delivering again will not help)"), "\(human.stdout)")
            #expect(human.stdout.contains("Busy: the server answered HTTP 500 (attempt 1, next try after "), "\(human.stdout)")

            // A DIR named that is not there is said so, not shown as an empty history.
            let typo = try await runner.run(["status", "--dir", scratch.child("no-such")])
            #expect(typo.exitCode == 66)
            #expect(typo.stderr.contains("No such file or directory"), "\(typo.stderr)")
        }
    }

    /// A body of unknown length that fills the disk fails with the system's word, and nothing of
    /// it stays to keep the disk full. (One whose length is declared cannot fit and fails before
    /// its body: `RetentionTests.anItemThatCannotFitFailsAtOnceAndLeavesTheDiskToTheOthers`.)
    @Test(.enabled("mounting a tmpfs is not allowed here, so the full-disk case cannot be staged") { await TmpfsMount.isAllowed })
    func aBodyOfUnknownLengthThatFillsTheDiskFailsAndLeavesNothing() async throws {
        let scratch = try ScratchDirectory()
        let dir = scratch.child("small-disk")
        try await withTmpfsMount(at: dir, size: "4m") { _ in
            try await withSampleServer { server in
                let payload = PayloadBuilder.json([(key: "big", title: "Big", url: server.url("/chunked/\(6 << 20).mp4"))])
                let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"], stdin: payload)
                #expect(run.exitCode == 75)
                #expect(run.item("big")?["status"] as? String == "failed")
                #expect((run.item("big")?["error"] as? String)?.contains("No space left on device") == true, "\(run.item("big") ?? [:])")
                #expect(ScratchDirectory.visibleMedia(dir).isEmpty)
                #expect(ScratchDirectory.allEntries(dir + "/.vodapp/partial").isEmpty, "a partial body was left filling the disk")
            }
        }
    }
}
