import Foundation
import UnitTestSupport

/// An empty file of `size` in a scratch folder of its own, with an empty folder beside it to
/// mount it on: what every test file system made from an image starts from (`ExfatMount`,
/// `Ext4Mount`).
struct ImageFile {
    let scratch: ScratchDirectory
    let image: String
    let mountPoint: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(_ name: String, size: String) async throws {
        scratch = try ScratchDirectory(name)
        image = scratch.child("image")
        mountPoint = scratch.child("mount")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        guard try await runTool("/usr/bin/truncate", ["-s", size, image]).exitCode == 0 else { throw Failure(description: "truncate failed") }
    }
}
