import Foundation
import VODAppSamples

/// Whether the file at `path` holds exactly the sample clip `name` (`tulips.mp4`), as the sample
/// server serves it. A Bool, so that a mismatch does not print a hundred thousand bytes.
public func holdsSampleMedia(_ path: String, named name: String) -> Bool {
    guard let contents = ScratchDirectory.contents(path), let clip = SampleMedia.bytes(named: name) else { return false }
    return contents == clip
}
