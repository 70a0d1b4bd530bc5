/// Why a mux did not make a file.
package struct MuxFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The parts cannot make a file, and will not next time: a broken segment, no audio or
        /// video, a codec change mid-stream.
        case unusable
        /// The file would pass the size limit.
        case tooLarge
        /// Stopped before the end (the budget): the parts stay for the next delivery.
        case stopped
        /// Something that may pass: a part that could not be read, a disk that is full.
        case passing
    }

    package let kind: Kind
    package let description: String

    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
