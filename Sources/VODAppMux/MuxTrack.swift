/// One input of a mux, as runs (`MuxRun`): a variant's segments, or the segments of the audio
/// rendition it is played with; and which of its streams go into the file.
///
/// Read on the thread that muxes, while it muxes: not Sendable.
package struct MuxTrack {
    package let runs: [MuxRun]
    /// Whether its first video stream goes into the file.
    package let takesVideo: Bool
    /// Whether its first audio stream goes into the file: not a variant's own when the audio
    /// comes from a rendition (the language chosen).
    package let takesAudio: Bool
    /// What it is, for messages: "the stream", "the audio rendition".
    package let name: String
    /// The language of its audio, as its playlist says (a rendition's LANGUAGE), for the file's
    /// audio track; nil keeps what the segments say, if anything.
    package let audioLanguage: String?

    package init(runs: [MuxRun], takesVideo: Bool = true, takesAudio: Bool = true, name: String = "the stream",
                 audioLanguage: String? = nil) {
        self.runs = runs
        self.takesVideo = takesVideo
        self.takesAudio = takesAudio
        self.name = name
        self.audioLanguage = audioLanguage
    }
}
