import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// The real clips the sample server serves at `/media/NAME`: compiled in, the same as the files in
/// SampleMedia/, playable, and served with the validators and Range handling of `/bytes/N`.
@Suite struct SampleMediaTests {
    private static let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../SampleMedia").standardizedFileURL.path

    @Test func theEmbeddedClipsAreTheCommittedFilesAndPlayable() async throws {
        #expect(SampleMedia.clips.map(\.name) == ["tulips.mp4", "unicorns.mp4", "sunset.mp4"])
        #expect(Set(SampleMedia.clips.map(\.name)) == Set(ScratchDirectory.visibleEntries(Self.committed).filter { $0.hasSuffix(".mp4") }),
                "SampleMedia/clips.tsv does not list every clip beside it")
        var total = 0
        for clip in SampleMedia.clips {
            let path = Self.committed + "/" + clip.name
            #expect(holdsSampleMedia(path, named: clip.name), "\(clip.name) differs from SampleMedia/")
            let bytes = try #require(SampleMedia.bytes(named: clip.name))
            total += bytes.count
            let streams = await MediaFixtures.ffprobeStreams(path)
            let seconds = await MediaFixtures.ffprobeDuration(path)
            #expect(streams.first { $0.codecType == "video" }?.codecName == "h264" && streams.contains { $0.codecType == "audio" },
                    "\(clip.name)")
            #expect(seconds.map { abs($0 - clip.seconds) < 0.05 } == true, "\(clip.name): \(String(describing: seconds))")
            #expect((2...10).contains(clip.seconds), "\(clip.name): a few seconds")
        }
        // Small enough to live in the binary and the repository: a few hundred KiB in all.
        #expect(total < 512 * 1024, "\(total) bytes")
        // The catalogue's three items that arrive are these clips, with their real sizes.
        let arriving = SampleCatalogue.entries.filter { $0.clip != nil }
        #expect(arriving.map(\.title) == ["Tulips", "Unicorns and horses spining around", "Superb sunset - Miami Beach 2017"])
        for entry in arriving {
            #expect(entry.path == "/media/" + (entry.clip?.name ?? ""))
            #expect(entry.bytes == Int64(SampleMedia.bytes(named: entry.clip?.name ?? "")?.count ?? -1))
        }
    }

    @Test func aClipIsServedWithValidatorsAndRangesAsBytesAre() async throws {
        let clip = try #require(SampleMedia.bytes(named: "tulips.mp4"))
        let size = clip.count
        try await withSampleServer { server in
            let whole = try HTTPExchange.exchange(port: server.port, "GET", "/media/tulips.mp4")
            #expect(whole.status == 200)
            #expect(whole.headers["content-length"] == "\(size)")
            #expect(whole.headers["content-type"] == "video/mp4")
            #expect(whole.headers["accept-ranges"] == "bytes")
            #expect(whole.headers["last-modified"] != nil)
            let etag = try #require(whole.headers["etag"])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 2, "a strong ETag: \(etag)")
            #expect(whole.body == clip, "the body is the clip")

            let head = try HTTPExchange.exchange(port: server.port, "HEAD", "/media/tulips.mp4")
            #expect(head.status == 200 && head.headers["content-length"] == "\(size)" && head.body.isEmpty)

            let part = try HTTPExchange.exchange(port: server.port, "GET", "/media/tulips.mp4", ["Range": "bytes=1000-1999"])
            #expect(part.status == 206)
            #expect(part.headers["content-range"] == "bytes 1000-1999/\(size)")
            #expect(part.headers["content-length"] == "1000")
            #expect(part.body == Array(clip[1000..<2000]))

            let tail = try HTTPExchange.exchange(port: server.port, "GET", "/media/tulips.mp4", ["Range": "bytes=-100"])
            #expect(tail.status == 206 && tail.body == Array(clip[(size - 100)...]))

            let rest = try HTTPExchange.exchange(port: server.port, "GET", "/media/tulips.mp4", ["Range": "bytes=50000-", "If-Range": etag])
            #expect(rest.status == 206 && rest.body == Array(clip[50000...]), "an If-Range with the ETag resumes")

            let changed = try HTTPExchange.exchange(port: server.port, "GET", "/media/tulips.mp4",
                                                ["Range": "bytes=50000-", "If-Range": "\"another\""])
            #expect(changed.status == 200 && changed.body == clip, "an If-Range with another ETag gets the whole body")

            let beyond = try HTTPExchange.exchange(port: server.port, "GET", "/media/tulips.mp4", ["Range": "bytes=\(size)-"])
            #expect(beyond.status == 416 && beyond.headers["content-range"] == "bytes */\(size)")

            // Each clip has an ETag of its own.
            let other = try HTTPExchange.exchange(port: server.port, "HEAD", "/media/sunset.mp4")
            #expect(other.status == 200 && other.headers["etag"] != etag)
            #expect(try HTTPExchange.exchange(port: server.port, "GET", "/media/nothing.mp4").status == 404)
        }
    }

    @Test func aClipTakesTheRateAndTheSharedLinkAsBytesDo() async throws {
        let size = try #require(SampleMedia.bytes(named: "tulips.mp4")).count
        // About 56 KB at 100 kB/s: half a second, whether the cap is the request's or the link's.
        try await withSampleServer { server in
            let capped = try HTTPExchange.exchange(port: server.port, "GET", "/media/tulips.mp4?rate=100000")
            #expect(capped.body.count == size)
            #expect(capped.seconds >= 0.4, "\(capped.seconds) s")
        }
        try await withSampleServer(linkRate: 100_000) { server in
            let linked = try HTTPExchange.exchange(port: server.port, "GET", "/media/tulips.mp4")
            #expect(linked.body.count == size)
            #expect(linked.seconds >= 0.4, "\(linked.seconds) s")
        }
    }
}

/// One HTTP/1.1 request on a fresh loopback connection, its answer read to the end of its
/// Content-Length: what the sample server sends, byte for byte.
private enum HTTPExchange {
    struct Answer {
        let status: Int
        /// Lowercased names.
        let headers: [String: String]
        let body: [UInt8]
        let seconds: Double
    }

    static func exchange(port: Int, _ method: String, _ target: String, _ headers: [String: String] = [:]) throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let started = ContinuousClock.now
        _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        func receive() throws {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { throw POSIXError(.ECONNRESET) }
            received.append(contentsOf: buffer[0..<count])
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            try receive()
            headEnd = received.indices.dropLast(3).first { Array(received[$0..<($0 + 4)]) == separator }
        }
        let head = String(decoding: received[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let status = head.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var answerHeaders: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            answerHeaders[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = method == "HEAD" ? 0 : Int(answerHeaders["content-length"] ?? "0") ?? 0
        let bodyStart = headEnd! + 4
        while received.count - bodyStart < length { try receive() }
        let elapsed = started.duration(to: .now)
        return Answer(status: status, headers: answerHeaders, body: Array(received[bodyStart..<(bodyStart + length)]),
                      seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
