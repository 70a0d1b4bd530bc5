import CommandSupport
import Foundation
import Logging
import Testing
import UnitTestSupport
import VODAppBase
import VODAppDelivery
import VODAppMediaDirectory
import VODAppPayload
import VODAppReport

/// The whole pipeline in process: payload in, files in DIR and a report out.
@Suite struct DeliveryTests {
    private func deliver(_ items: [(key: String, title: String, url: String)], into dir: String,
                         budget: Duration = .seconds(30)) async throws -> DeliveryReport {
        let payload = try Payload(data: PayloadBuilder.json(items))
        let delivery = Delivery(options: DeliveryOptions(directory: dir, budget: budget, notify: false),
                                logger: Logger(label: "test"), attention: .unheard)
        return try await delivery.run(payload, from: .standardInput)
    }

    @Test func fiveItemsOfDifferentSizesArriveByteIdenticalAndConcurrently() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            // Each body is capped to last about half a second, so the transfers overlap only if
            // they really run at the same time.
            let sizes: [Int64] = [1_000, 40_000, 150_000, 600_000, 2_000_000]
            let items = sizes.enumerated().map { index, size in
                (key: "item\(index)", title: "Video \(index)", url: server.url("/bytes/\(size).mp4?rate=\(size * 2)"))
            }
            let report = try await deliver(items, into: dir.path)

            #expect(report.result == .newData)
            #expect(ExitStatus(report) == .success)
            for (index, size) in sizes.enumerated() {
                let item = try #require(report.items.first { $0.key == "item\(index)" })
                #expect(item.status == .downloaded)
                #expect(item.bytes == size)
                #expect(item.httpStatus == 200)
                #expect(item.path == dir.path + "/Video \(index) [item\(index)].mp4")
                #expect(holdsSampleBytes(ScratchDirectory.media(dir.path, "item\(index)"), count: size))
            }
            #expect(ScratchDirectory.visibleMedia(dir.path) == (0..<5).map { "Video \($0) [item\($0)].mp4" })
            #expect(maximumConcurrency(server.requests) == 5)
        }
    }

    @Test func failuresBesideGoodItemsLeaveNothingVisibleAndExitTemporaryFailure() async throws {
        let dir = try ScratchDirectory()
        let refused = try closedPort()
        try await withSampleServer { server in
            let report = try await deliver([
                (key: "good1", title: "Good one", url: server.url("/bytes/300000.mp4")),
                (key: "good2", title: "Good two", url: server.url("/close/123456.webm")),
                (key: "notfound", title: "Missing", url: server.url("/status/404")),
                (key: "broken", title: "Broken", url: server.url("/status/500")),
                (key: "refused", title: "Refused", url: "http://127.0.0.1:\(refused)/a.mp4"),
                (key: "short", title: "Short", url: server.url("/short/50000/1000.mp4")),
                (key: "loop", title: "Loop", url: server.url("/loop")),
                (key: "tofile", title: "To file", url: server.url("/redirect?to=file:///etc/passwd")),
            ], into: dir.path)

            func status(_ key: String) -> ItemReport.Status? { report.items.first { $0.key == key }?.status }
            #expect(status("good1") == .downloaded)
            #expect(status("good2") == .downloaded)
            for key in ["notfound", "broken", "refused", "short", "loop", "tofile"] {
                #expect(status(key) == .failed, "\(key)")
                #expect(report.items.first { $0.key == key }?.error?.isEmpty == false)
            }
            #expect(report.items.first { $0.key == "notfound" }?.httpStatus == 404)
            #expect(report.items.first { $0.key == "broken" }?.httpStatus == 500)
            #expect(report.items.first { $0.key == "refused" }?.httpStatus == nil)
            #expect(report.items.first { $0.key == "loop" }?.error == "more than 5 redirects")
            #expect(report.items.first { $0.key == "tofile" }?.error?.contains("not http or https") == true)
            #expect(report.result == .newData)
            #expect(ExitStatus(report) == .temporaryFailure)
            #expect(ScratchDirectory.visibleMedia(dir.path) == ["Good one [good1].mp4", "Good two [good2].webm"])
            // Placed items leave nothing in the work area (which exists: this can fail).
            let work = ScratchDirectory.allEntries(dir.path + "/.vodapp/partial")
            #expect(FileManager.default.fileExists(atPath: dir.path + "/.vodapp/partial"))
            #expect(!work.contains("good1.part") && !work.contains("good2.part"), "\(work)")
            #expect(holdsSampleBytes(ScratchDirectory.media(dir.path, "good2"), count: 123_456))
        }
    }

    @Test func redirectsAreFollowedUpToFive() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            var url = server.url("/bytes/5000.mp4")
            for _ in 0..<5 {
                url = server.url("/redirect?to=" + (url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url))
            }
            let report = try await deliver([(key: "r", title: "R", url: url)], into: dir.path)
            #expect(report.items.first?.status == .downloaded)
            // The name comes from the payload's URL, which has no extension here.
            #expect(report.items.first?.path == ScratchDirectory.media(dir.path, "r"))
            #expect(holdsSampleBytes(ScratchDirectory.media(dir.path, "r"), count: 5000))
        }
    }

    @Test func itemWhoseFileIsPresentIsNotFetchedAgain() async throws {
        let dir = try ScratchDirectory()
        try await withSampleServer { server in
            let items = [(key: "again", title: "Again", url: server.url("/bytes/1000.mp4"))]
            let first = try await deliver(items, into: dir.path)
            #expect(first.items.first?.status == .downloaded)
            let second = try await deliver(items, into: dir.path)
            #expect(second.items.first?.status == .alreadyPresent)
            #expect(second.items.first?.bytes == 1000)
            #expect(second.result == .noData)
            #expect(server.requests.count == 1)
        }
    }

    @Test func emptyPlaylistWritesNothing() async throws {
        let dir = try ScratchDirectory()
        let target = dir.child("media")
        let report = try await deliver([], into: target)
        #expect(report.result == .noData)
        #expect(report.items.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func unwritableDirectoryIsADeliveryError() async throws {
        let dir = try ScratchDirectory()
        let blocker = dir.child("file")
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
        await #expect(throws: MediaDirectoryError.self) {
            try await deliver([(key: "k", title: "T", url: "http://127.0.0.1:1/a")], into: blocker + "/media")
        }
    }
}
