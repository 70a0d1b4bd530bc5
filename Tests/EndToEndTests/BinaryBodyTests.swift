import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// A body that is not text is never refused as a page: what the sniffer took for a document
/// must start as text does.
@Suite struct BinaryBodyTests {
    let runner = VODAppRunner()

    /// Binary bytes, served by nginx as `video/mp4`, that run up to `{"` after a few bytes that
    /// are not UTF-8 and a NUL: they were refused as "JSON, an API's error", for good. They are
    /// placed, byte for byte.
    @Test func aBinaryBodyWhoseJunkRunsUpToABraceIsPlaced() async throws {
        let nginx = try await NginxServer()
        defer { nginx.stop() }
        let tail = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }
        let body = Data([0x80, 0x00, 0xC3, UInt8(ascii: "{"), UInt8(ascii: "\""), 0x9A, 0x01] + tail)
        try body.write(to: URL(fileURLWithPath: nginx.root + "/blob.mp4"))
        let scratch = try ScratchDirectory()
        let dir = scratch.child("media")
        let run = try await runner.run(["-", "--dir", dir, "--json", "--no-notify"],
                                       stdin: PayloadBuilder.json([(key: "blob", title: "Blob", url: nginx.url("/blob.mp4"))]))
        #expect(run.exitCode == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.item("blob")?["status"] as? String == "downloaded", "\(run.stdout)")
        #expect(FileManager.default.contents(atPath: ScratchDirectory.media(dir, "blob")) == body)
        #expect(nginx.requests.last?.status == 200)
    }
}
