import ArgumentParser
import CommandSupport
import Foundation
import VODAppBase
import VODAppDelivery
import VODAppPayload

struct Poll: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poll",
        abstract: "GET a payload from URL and deliver it: the fallback for a missed push.",
        discussion: """
        The payload has the same format as a push (at most 1 MiB, after at most 5 redirects) \
        and is delivered as `vodapp handle` would, with the same options; the budget counts \
        from the start, the GET included. --token, or VODAPP_TOKEN (better: it stays out of \
        ps), is sent as Authorization: Bearer to URL's host and port only, never across a \
        redirect to another host. --header, --cookies and --user-agent go with the media, \
        not with this GET.

        The fallback for pushes that never arrived (a laptop asleep, the listener down): the \
        Debian package's vodapp-poll.timer polls every 30 minutes. Given the listener's DIR, a \
        poll after a push fetches nothing twice.

        Exit codes: as `vodapp handle`, and 77 when the endpoint rejected the token (401 or \
        403); 75 when it could not be reached, answered another error, or answered a web page \
        instead of a payload (a login page or a captive portal): poll again; 65 for a payload \
        that is there and invalid.

        Example:
          VODAPP_TOKEN=s3cret vodapp poll https://example.com/vodapp/payload.json

        More: docs/LISTEN.md, "Polling" (installed under /usr/share/doc/vodapp/).
        """
    )

    @Argument(help: ArgumentHelp("Where to GET the payload: an http or https URL.", valueName: "url"),
              transform: OptionValue.webURL)
    var url: URL

    @Option(help: ArgumentHelp("Bearer token for URL's host. Default: $VODAPP_TOKEN.", valueName: "token"))
    var token: String?

    @OptionGroup var handling: HandlingOptions

    @Flag(help: "Print the report as one JSON object on stdout, and nothing else there.")
    var json = false

    func run() async throws {
        let logger = LogSetup.bootstrap(quiet: handling.quiet, verbose: handling.verbose, level: handling.logLevel)
        let options = handling.deliveryOptions
        let signals = await SignalTrap()
        let endpoint = url
        let bearer = token ?? Environment.value("VODAPP_TOKEN")
        let poll = PayloadPoll(url: endpoint, token: bearer)
        let budget = Budget(start: ProcessClock.launch, duration: options.budget)

        let payload: Payload
        do {
            payload = try await poll.fetch(timeout: ContinuousClock.now.duration(to: budget.transferDeadline))
        } catch {
            poll.record(error, in: options, logger: logger, attention: .logged(to: logger))
            throw error
        }

        throw ExitCode(try await handling.deliverOnce(payload, from: .poll(url: endpoint.absoluteString), json: json,
                                                      signals: signals, logger: logger))
    }
}
