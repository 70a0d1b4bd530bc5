import Foundation

/// Real, playable clips the sample server serves at `/media/NAME`: the three items of the sample
/// playlist that are small enough to download. H.264 + AAC in MP4 (index first), a few seconds of
/// a test pattern with the item's title on it and a tone, made by `scripts/make-sample-media` into
/// `SampleMedia/` and compiled into the module at build time (the EmbedSampleMedia plugin), so a
/// static `vodapp-push` serves them with nothing beside it.
public enum SampleMedia {
    public struct Clip: Sendable, Equatable {
        /// The file name, and the last part of its path on the sample server: `tulips.mp4`.
        public let name: String
        /// The playlist item it stands for.
        public let title: String
        /// Its duration, as ffprobe reported it when it was made.
        public let seconds: Double

        /// Its path on the sample server.
        public var path: String { "/media/" + name }
    }

    /// Every clip, in the order the script makes them.
    public static var clips: [Clip] { embedded.map(\.clip) }

    /// The clip named `name` (`tulips.mp4`), nil when there is none.
    public static func clip(named name: String) -> Clip? {
        clips.first { $0.name == name }
    }

    /// The bytes of the clip named `name`, exactly as served; nil when there is no such clip.
    public static func bytes(named name: String) -> [UInt8]? {
        decoded[name]?.bytes
    }

    /// A strong ETag for the clip named `name`: its name and a hash of its bytes, so that a clip
    /// made again gets a new one.
    static func etag(named name: String) -> String? {
        decoded[name]?.etag
    }

    /// Decoded once, on first use: a few hundred KiB, in a few milliseconds.
    private static let decoded: [String: (bytes: [UInt8], etag: String)] = {
        var result: [String: (bytes: [UInt8], etag: String)] = [:]
        for (clip, base64) in embedded {
            guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
                preconditionFailure("the embedded \(clip.name) is not valid base64 (sample-media-embedder)")
            }
            let bytes = [UInt8](data)
            // FNV-1a, 64 bits: stable across runs and platforms, unlike Hasher.
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            let stem = clip.name.split(separator: ".").first.map(String.init) ?? clip.name
            result[clip.name] = (bytes, "\"\(stem)-\(String(hash, radix: 16))\"")
        }
        return result
    }()
}
