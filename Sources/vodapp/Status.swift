import ArgumentParser
import CommandSupport
import Foundation
import VODAppDelivery

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what DIR holds, what is partial or failed, and the last deliveries.",
        discussion: """
        Read from DIR's state store (DIR/.vodapp/state.sqlite): every item fetched (file, \
        bytes, when), what is partial and will be resumed, what failed and when another attempt \
        is worth it, what was removed (and so is not fetched again), and the last ten \
        deliveries with where they came from. It writes nothing to DIR (a reader of a store in \
        use marks SQLite's shared-memory index, as every reader does).

        Exit status: 0; 66 when DIR does not exist or cannot be read; 73 when DIR/.vodapp is not yours \
        (another user's, or writable by group or others).

        Examples:
          vodapp status
          vodapp status --dir /tmp/videos --json | jq '.items[] | select(.state == "partial")'
        """
    )

    @OptionGroup var directory: MediaDirectoryOption

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    func run() throws {
        let path = try directory.existingPath()
        let status = try StatusReport(directory: path)
        print(json ? status.json : StatusRenderer.summary(status))
    }
}
