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
        is worth it, and the last ten deliveries with where they came from.

        Examples:
          vodapp status
          vodapp status --dir /tmp/videos --json | jq '.items[] | select(.state == "partial")'
        """
    )

    @Option(help: ArgumentHelp("The media directory. Default: $VODAPP_DIR, else the XDG videos folder + /VODApp.", valueName: "dir"))
    var dir: String?

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    func run() throws {
        let options = DeliveryOptions(directory: dir ?? DeliveryOptions.defaultDirectory())
        var info = stat()
        if dir != nil, stat(options.directory, &info) != 0 {
            // A DIR named on purpose that is not there is a typo more often than a fresh start.
            throw CommandFailure("cannot read \(options.directory): \(Errno(rawValue: errno).description)", status: .directoryUnusable)
        }
        if dir != nil, (info.st_mode & S_IFMT) != S_IFDIR {
            throw CommandFailure("cannot read \(options.directory): Not a directory", status: .directoryUnusable)
        }
        let status = try StatusReport(directory: options.directory)
        print(json ? status.json : StatusRenderer.summary(status))
    }
}
