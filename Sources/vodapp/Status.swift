import ArgumentParser
import CommandSupport
import Foundation
import VODAppDelivery
import VODAppReport

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what DIR holds, what is partial or failed, and the last deliveries.",
        discussion: """
        Read from DIR's state store (DIR/.vodapp/state.sqlite): every item fetched (file, \
        bytes, when), what is partial and will be resumed, what failed and when another attempt \
        is worth it, what was too large, what was removed, and the last ten deliveries with \
        where they came from. It writes nothing to DIR (a reader of a store in use marks \
        SQLite's shared-memory index, as every reader does).

        Partial: a cut transfer with its bytes kept; "resumable" asks only for the rest, \
        "starts over" when the server gave no validator. Failed: "delivering again will not \
        help" marks a failure for good (a 404, a live stream); otherwise "next try after" is \
        the server's Retry-After or a backoff (a minute, doubling up to six hours), when a \
        listener on DIR tries again on its own. Too large: over --max-size when last offered. \
        Removed: gone, with why; a push does not fetch again a file you deleted (`vodapp \
        forget KEY`), and fetches again what retention or --sync removed. Each delivery: \
        when, from where (file, stdin, udp, http, mqtt, poll, retry, get), its result and \
        counts.

        Every string comes from the store, which anyone who can write DIR can write: control \
        characters and bidirectional overrides are shown as ?, and escaped in --json's strings.

        Exit status: 0; 66 when DIR does not exist or cannot be read, or its store is not one \
        vodapp made; 73 when DIR/.vodapp is not yours (another user's, or writable by group or \
        others).

        Examples:
          vodapp status
          vodapp status --dir /tmp/videos --json |
            jq '.items[] | select(.state == "partial")'

        More: docs/OUTPUT.md, "vodapp status" (installed under /usr/share/doc/vodapp/).
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
