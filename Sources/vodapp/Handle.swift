import ArgumentParser
import CommandSupport
import Foundation
import SystemPackage
import VODAppBase
import VODAppPayload

struct Handle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handle",
        abstract: "Fetch every item of a payload's playlist into DIR within the budget.",
        discussion: """
        PAYLOAD is a JSON file, or - for standard input:
          {"aps": {"content-available": 1},
           "playlist": {"<key>": {"title": "Tulips", "subtitle": "optional",
                                  "url": "https://host/media/tulips.mp4"}}}

        The payload is refused whole (exit 65, one line on stderr, nothing fetched) when it is \
        not strict JSON (RFC 8259: no trailing comma, no key twice), has no \
        aps.content-available of 1 or no playlist object, is over 1 MiB, or holds only invalid \
        items. An item is invalid when its key is not 1 to 128 of A-Z, a-z, 0-9, _ and -, its \
        title is not a string, its subtitle is there and not a string, or its url is not an \
        absolute http or https URL; the valid items are still fetched. Other top-level keys \
        are ignored, so simctl .apns files work as they are.

        Each item is fetched over http or https (at most --jobs at once, at most 5 redirects, \
        retried within the budget after a 408, 429, 5xx or a lost connection). One larger than \
        --max-size is dropped as soon as that is known, from its Content-Length or as it \
        arrives, and nothing of it stays. Only media becomes a file: a web page, JSON, text or \
        an empty body fails the item. An HLS or DASH stream arrives as one MP4. A file is \
        placed in DIR as 'Title [key].ext' only when complete, DIR/playlist.m3u8 lists it, and \
        one desktop notification names what arrived.

        Delivering again fetches nothing twice: an item whose file is in DIR is already \
        present, a cut transfer resumes where it stopped, and a file you deleted is not fetched \
        again (`vodapp forget KEY`, or --refetch-removed). The report: one line per item and a \
        totals line, or one JSON object with --json.

        Exit codes: 0 every valid item is in DIR, was too large, or was removed (and is not \
        fetched again); 75 an item failed or timed out and may pass later, or was deferred (a \
        metered connection, power saver): try again; 69 items failed for good ("final": a 404, \
        a live stream; delivering again will not help); 64 bad command line; 65 invalid \
        payload, or invalid items; 66 payload unreadable; 73 DIR unusable; 130/143/129 stopped by \
        SIGINT/SIGTERM/SIGHUP (what was cut is resumed next time). 75 wins over 65, and 65 over 69.

        Examples:
          vodapp handle SamplePayloads/vodapp-sample-local.json --dir /tmp/videos
          vodapp - --json < payload.json | jq .result
          vodapp payload.json --dry-run --sync   # what it would fetch and remove

        More: docs/PAYLOAD.md, docs/DIRECTORY.md and docs/OUTPUT.md (installed under \
        /usr/share/doc/vodapp/).
        """
    )

    @Argument(help: ArgumentHelp("The payload: a JSON file, or - for standard input.", valueName: "payload"), completion: .file())
    var payload: String

    @OptionGroup var handling: HandlingOptions

    @Flag(help: "Print the report as one JSON object on stdout, and nothing else there.")
    var json = false

    func run() async throws {
        let logger = LogSetup.bootstrap(quiet: handling.quiet, verbose: handling.verbose, level: handling.logLevel)
        let options = handling.deliveryOptions
        let signals = await SignalTrap()

        let source = PayloadSource(argument: payload)
        if payload == "-", isatty(STDIN_FILENO) == 1 {
            // Otherwise a terminal just waits, and a person wonders for the whole budget.
            StandardError.write("reading the payload from the terminal: paste it, then Ctrl-D (the budget, \(String(format: "%g", options.budget.inSeconds)) s, bounds the wait)")
        }
        let parsed: Payload
        do {
            let deadline = Budget(start: ProcessClock.launch, duration: options.budget).transferDeadline
            parsed = try Payload(data: try source.read(limit: Payload.maximumSize, deadline: deadline))
        } catch let error as PayloadSource.ReadError {
            throw CommandFailure(error) ?? error
        }

        throw ExitCode(try await handling.deliverOnce(parsed, from: source.deliverySource, json: json, signals: signals,
                                                      logger: logger))
    }
}
