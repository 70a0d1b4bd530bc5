import Foundation
import Testing
import UnitTestSupport
import VODAppMux
@testable import VODAppStreams

/// The muxer against segments made to lead libavformat elsewhere: real libavformat, a real MP4
/// made by ffmpeg, a real listening socket.
@Suite struct StreamMuxerTests {
    /// An ID3v2 tag of `padding` zero bytes, then `body`: an MPEG-TS playlist's segment may be
    /// packed audio, which starts with ID3, and libavformat skips the tag before it probes.
    private static func behindID3(_ body: String, padding: Int = 600) -> [UInt8] {
        let size = [UInt8((padding >> 21) & 0x7f), UInt8((padding >> 14) & 0x7f), UInt8((padding >> 7) & 0x7f), UInt8(padding & 0x7f)]
        return Array("ID3".utf8) + [4, 0, 0] + size + [UInt8](repeating: 0, count: padding) + Array(body.utf8)
    }

    /// A DASH manifest whose one representation is at `url`.
    private static func manifest(naming url: String) -> String {
        """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT3S" minBufferTime="PT1S" \
        profiles="urn:mpeg:dash:profile:isoff-on-demand:2011"><Period duration="PT3S"><AdaptationSet mimeType="video/mp4">\
        <Representation id="1" bandwidth="100000" codecs="avc1.64000c"><BaseURL>\(url)</BaseURL></Representation>\
        </AdaptationSet></Period></MPD>
        """
    }

    private static func mux(_ segment: [UInt8], into path: String) throws(MuxFailure) -> StreamMuxer.Made {
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(fd) }
        let deadline = ContinuousClock.now + .seconds(20)
        return try StreamMuxer.mux([MuxTrack(runs: [MuxRun(count: 1) { (_: Int) throws(MuxFailure) -> [UInt8] in segment }])], into: fd,
                                   maximumSize: 20 << 20) { ContinuousClock.now >= deadline }
    }

    /// A segment that is a manifest naming a local file: refused as no media, and the file is not
    /// read into the one made (the fifth attacker trial's copied a user's private video into DIR).
    @Test(.enabled(if: isInstalled("ffmpeg"), "needs ffmpeg")) func aSegmentNamingALocalFileIsRefusedAndTheFileIsNotRead() async throws {
        let root = NSTemporaryDirectory() + "/vodapp-mux-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let secret = try await MediaFixtures.clip(seconds: 2, root: root, name: "private.mp4")
        let made = root + "/made.mp4"
        var failure: MuxFailure?
        do {
            _ = try Self.mux(Self.behindID3(Self.manifest(naming: "file://" + secret.absolutePath)), into: made)
        } catch {
            failure = error
        }
        #expect(failure == MuxFailure(.unusable, "the stream is not MPEG-TS, MP4 or packed audio"), "\(String(describing: failure))")
        let size = (try? FileManager.default.attributesOfItem(atPath: made)[.size] as? Int) ?? 0
        #expect(size < 1024, "\(size) bytes made from a segment of under 2 KB")
    }

    /// A segment that is a manifest naming an http URL: nothing connects to it (a server that
    /// never answered held the run for ever).
    @Test func aSegmentNamingAnHTTPURLMakesNoConnection() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound && listen(listener, 8) == 0)
        let port = UInt16(bigEndian: address.sin_port)
        let made = NSTemporaryDirectory() + "/vodapp-mux-\(UInt32.random(in: 0...UInt32.max)).mp4"
        defer { unlink(made) }
        var failure: MuxFailure?
        do {
            _ = try Self.mux(Self.behindID3(Self.manifest(naming: "http://127.0.0.1:\(port)/video.mp4")), into: made)
        } catch {
            failure = error
        }
        #expect(failure?.kind == .unusable, "\(String(describing: failure))")
        _ = fcntl(listener, F_SETFL, O_NONBLOCK)
        let connection = accept(listener, nil, nil)
        if connection >= 0 { close(connection) }
        #expect(connection < 0, "libavformat connected to the URL the segment named")
    }
}
