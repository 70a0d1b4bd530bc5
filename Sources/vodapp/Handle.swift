import ArgumentParser
import CommandSupport
import Foundation
import SystemPackage
import VODAppBase
import VODAppPayload

struct Handle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch every item of a payload's playlist into DIR within the budget.",
        discussion: """
        PAYLOAD is a JSON file, or - for standard input:
          {"aps": {"content-available": 1},
           "playlist": {"<key>": {"title": "...", "subtitle": "...", "url": "https://..."}}}

        Exit codes: 0 every valid item is in DIR, was too large, or was removed (and is not \
        fetched again); 75 an item failed or timed out and may pass later, or was deferred (a \
        metered connection, power saver): try again; 69 items failed for good ("final": a 404, a live \
        stream; delivering again will not help); 64 bad command line; 65 invalid payload; 66 payload unreadable; \
        73 DIR unusable; 130/143 stopped by SIGINT/SIGTERM (what was cut is resumed next time).

        Example:
          vodapp handle SamplePayloads/vodapp-sample-local.json --dir /tmp/videos --json
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
