import UnitTestSupport
import Testing

/// What a stream item (HLS or DASH) must be once placed: one MP4 with its index first, its
/// video and its sound, as long as the source (within 0.5 s), that ffmpeg decodes whole without
/// an error and mpv plays to its end.
public enum PlayableStream {
    /// Records an issue for each way the file at `path` falls short.
    public static func expect(_ path: String, lastsLike source: Double, types: [String] = ["audio", "video"],
                              sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(path.hasSuffix(types.contains("video") ? ".mp4" : ".m4a"), "\(path)", sourceLocation: sourceLocation)
        let duration = await MediaFixtures.ffprobeDuration(path)
        #expect(duration.map { abs($0 - source) <= 0.5 } == true,
                "\(path): ffprobe reads \(String(describing: duration)) s, the source has \(source) s", sourceLocation: sourceLocation)
        let found = await MediaFixtures.ffprobeStreams(path).map(\.codecType)
        #expect(found.sorted() == types.sorted(), "\(path): \(found)", sourceLocation: sourceLocation)
        let boxes = MediaFixtures.topLevelBoxes(path)
        #expect((boxes.firstIndex(of: "moov") ?? .max) < (boxes.firstIndex(of: "mdat") ?? -1), "\(path): \(boxes)",
                sourceLocation: sourceLocation)
        let errors = await MediaFixtures.decodeErrors(path)
        #expect(errors.isEmpty, "\(path): \(errors)", sourceLocation: sourceLocation)
        let playing = await MPVPlayback.problem(playing: path, lasting: source, hasPicture: types.contains("video"))
        #expect(playing == nil, "\(path): \(playing ?? "")", sourceLocation: sourceLocation)
    }
}
