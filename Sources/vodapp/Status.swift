import ArgumentParser
import CommandSupport
import Foundation
import SystemPackage
import VODAppDelivery

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what DIR holds, what is partial or failed, and the last deliveries.",
        discussion: """
        Read from DIR's state store (DIR/.vodapp/state.sqlite): every item fetched (file, \
        bytes, when), what is partial and will be resumed, what failed and when another attempt \
        is worth it, what was removed (and so is not fetched again), and the last ten \
        deliveries with where they came from. It never writes to DIR.

        Exit status: 0, or 66 when DIR does not exist or cannot be read.

        Examples:
          vodapp status
          vodapp status --dir /tmp/videos --json | jq '.items[] | select(.state == "partial")'
        """
    )

    @OptionGroup var directory: MediaDirectoryOption

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    func run() throws {
        let path = directory.path
        // A DIR that is not there has no status: a typo more often than a fresh start, and
        // "nothing recorded" would hide it either way.
        do {
            let info = try Stat(FilePath(path))
            guard info.type == .directory else {
                throw CommandFailure("cannot read \(path): it is not a directory", status: .payloadUnreadable)
            }
        } catch let error as Errno {
            let hint = error == .noSuchFileOrDirectory ? " (nothing was ever delivered there; --dir names another)" : ""
            throw CommandFailure("cannot read \(path): \(error.description)\(hint)", status: .payloadUnreadable)
        }
        let status = try StatusReport(directory: path)
        print(json ? status.json : StatusRenderer.summary(status))
    }
}
