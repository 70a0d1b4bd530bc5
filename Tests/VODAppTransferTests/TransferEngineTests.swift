import Foundation
import Logging
import Testing
import UnitTestSupport
import VODAppModel
import VODAppSamples
import VODAppTransfer
import VODAppTransferPolicy

/// The engine against a real HTTP server: what arrives, what is dropped, and what it costs.
@Suite struct TransferEngineTests {
    static let limit: Int64 = 20 * 1024 * 1024
    let engine = TransferEngine(logger: Logger(label: "test"))

    private func fetch(_ path: String, on server: SampleServer, in dir: ScratchDirectory, limit: Int64 = limit) async throws -> TransferOutcome {
        let request = TransferRequest(id: "k", url: try MediaURL(server.url(path)), temporaryPath: dir.child("k.part"), maximumSize: limit)
        let outcomes = await engine.run([request], deadline: .now + .seconds(60))
        return try #require(outcomes.first)
    }

    @Test func oversizedItemWithContentLengthIsDroppedBeforeItsBody() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let outcome = try await fetch("/bytes/\(200 * 1024 * 1024).mp4", on: server, in: dir)
            #expect(outcome.result == .tooLarge(declaredSize: 200 * 1024 * 1024))
            #expect(outcome.bodyBytesReceived < 1024 * 1024, "\(outcome.bodyBytesReceived) body bytes reached vodapp")
            #expect(ScratchDirectory.allEntries(dir.path).isEmpty)
        }
    }

    @Test func oversizedChunkedItemIsAbortedSoonAfterTheLimit() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let outcome = try await fetch("/chunked/\(100 * 1024 * 1024)", on: server, in: dir)
            #expect(outcome.result == .tooLarge(declaredSize: nil))
            #expect(outcome.bodyBytesReceived > Self.limit)
            #expect(outcome.bodyBytesReceived <= Self.limit + 1024 * 1024, "\(outcome.bodyBytesReceived) body bytes reached vodapp")
            // The server stops once the client is gone; socket buffers hold at most a few MiB.
            try await Task.sleep(for: .milliseconds(200))
            let sent = try #require(server.requests.first).bodyBytesSent
            #expect(sent < 40 * 1024 * 1024, "the server sent \(sent) bytes")
            #expect(ScratchDirectory.allEntries(dir.path).isEmpty)
        }
    }

    @Test(arguments: ["bytes", "chunked", "close"])
    func exactlyTheLimitIsKeptAndOneByteMoreIsDropped(route: String) async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let kept = try await fetch("/\(route)/\(Self.limit)", on: server, in: dir)
            #expect(kept.result == .completed(bytes: Self.limit))
            #expect(holdsSampleBytes(dir.child("k.part"), count: Self.limit))
            try FileManager.default.removeItem(atPath: dir.child("k.part"))

            let dropped = try await fetch("/\(route)/\(Self.limit + 1)", on: server, in: dir)
            guard case .tooLarge = dropped.result else {
                Issue.record("\(route): \(dropped.result)")
                return
            }
            #expect(ScratchDirectory.allEntries(dir.path).isEmpty)
        }
    }

    /// A body shorter than its Content-Length, and an error page, which must not be stored as media.
    @Test(arguments: [
        ("/short/100000/40000", "the connection closed after 40000 of 100000 bytes", 200),
        ("/status/404", "the server answered HTTP 404", 404),
    ])
    func brokenResponsesFailAndLeaveNothing(path: String, reason: String, status: Int) async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let outcome = try await fetch(path, on: server, in: dir)
            #expect(outcome.result == .failed(reason: reason))
            #expect(outcome.httpStatus == status)
            #expect(ScratchDirectory.allEntries(dir.path).isEmpty)
        }
    }

    @Test func anEmptyBodyIsNotMediaAndLeavesNoFile() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let outcome = try await fetch("/bytes/0", on: server, in: dir)
            #expect(outcome.result == .failed(reason: "the server sent an empty body"))
            #expect(!outcome.isFinal)
            #expect(ScratchDirectory.allEntries(dir.path).isEmpty)
        }
    }

    @Test func jobsCapLimitsTransfersInFlight() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let engine = TransferEngine(configuration: .init(jobs: 2), logger: Logger(label: "test"))
            let requests = try (0..<6).map { index in
                TransferRequest(id: "k\(index)", url: try MediaURL(server.url("/bytes/20000?rate=100000&n=\(index)")),
                                temporaryPath: dir.child("k\(index).part"), maximumSize: Self.limit)
            }
            let outcomes = await engine.run(requests, deadline: .now + .seconds(30))
            #expect(outcomes.map(\.result) == Array(repeating: .completed(bytes: 20000), count: 6))
            #expect(maximumConcurrency(server.requests) == 2)
        }
    }
    /// One host's items never take every slot: at most `perHost` at once, however many wait.
    @Test func oneHostHoldsAtMostSixTransfersAtOnce() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let requests = try (0..<10).map { index in
                TransferRequest(id: "k\(index)", url: try MediaURL(server.url("/bytes/20000?rate=100000&n=\(index)")),
                                temporaryPath: dir.child("k\(index).part"), maximumSize: Self.limit)
            }
            let outcomes = await engine.run(requests, deadline: .now + .seconds(30))
            #expect(outcomes.map(\.result) == Array(repeating: .completed(bytes: 20000), count: 10))
            #expect(maximumConcurrency(server.requests) == TransferEngine.Configuration.defaultPerHost)
        }
    }

    /// An HLS item's segments share its limit as their bytes arrive: two concurrent 200,000-byte
    /// bodies under a 300,000-byte allowance cannot both land, and the one stopped gives its bytes
    /// back, so the other completes.
    @Test func requestsSharingAnAllowanceStopAtItAsTheirBytesArrive() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let engine = TransferEngine(configuration: .init(jobs: 2), logger: Logger(label: "test"))
            let allowance = ByteAllowance(300_000)
            let requests = try (0..<2).map { index in
                TransferRequest(id: "s\(index)", url: try MediaURL(server.url("/bytes/200000?rate=400000&n=\(index)")),
                                temporaryPath: dir.child("s\(index).part"), maximumSize: Self.limit, allowance: allowance)
            }
            let outcomes = await engine.run(requests, deadline: .now + .seconds(30))
            let completed = outcomes.filter { $0.result == .completed(bytes: 200_000) }
            let dropped = outcomes.filter { if case .tooLarge = $0.result { true } else { false } }
            #expect(completed.count == 1 && dropped.count == 1, "\(outcomes.map(\.result))")
            for outcome in dropped {
                #expect(!FileManager.default.fileExists(atPath: dir.child(outcome.id + ".part")))
            }
            // What the completed one wrote is still claimed; the dropped one's was given back.
            #expect(allowance.claim(100_000))
            #expect(!allowance.claim(1))
        }
    }

    /// A slice (an `#EXT-X-BYTERANGE` segment) is asked for with `Range` and must come as a 206
    /// of exactly its bytes; the file holds those bytes only.
    @Test func aSliceArrivesAsExactlyItsBytes() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let request = TransferRequest(id: "s", url: try MediaURL(server.url("/bytes/300000.mp4")), temporaryPath: dir.child("s.part"),
                                          maximumSize: Self.limit, expectation: .segment,
                                          slice: TransferRequest.Slice(offset: 100_000, length: 50_000))
            let outcome = try #require(await engine.run([request], deadline: .now + .seconds(30)).first)
            #expect(outcome.result == .completed(bytes: 50_000), "\(outcome.result)")
            #expect(outcome.httpStatus == 206)
            #expect(ScratchDirectory.contents(dir.child("s.part")) == SampleContent.bytes(100_000..<150_000))
        }
    }

    /// A server that answers a slice with the whole resource (200), or with other bytes than
    /// those asked, gets no file: the first for good (it ignores ranges), and with why.
    @Test(arguments: [
        ("ignore", "the server ignores byte ranges (it answered 200 to a request for bytes 100000-149999), which this stream's segments, byte ranges of one file, need", true),
        ("lie", "the server sent bytes 0-49999, not the bytes 100000-149999 asked", false),
        ("short", "the server sent bytes 100000-124999, not the bytes 100000-149999 asked", false),
    ])
    func aSliceAnsweredWithOtherBytesIsRefused(ranges: String, reason: String, final: Bool) async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let request = TransferRequest(id: "s", url: try MediaURL(server.url("/bytes/300000.mp4?ranges=\(ranges)")),
                                          temporaryPath: dir.child("s.part"), maximumSize: Self.limit, expectation: .segment,
                                          slice: TransferRequest.Slice(offset: 100_000, length: 50_000))
            let outcome = try #require(await engine.run([request], deadline: .now + .seconds(30)).first)
            #expect(outcome.result == .failed(reason: reason), "\(outcome.result)")
            #expect(outcome.isFinal == final)
            #expect(ScratchDirectory.allEntries(dir.path).isEmpty)
        }
    }
}
