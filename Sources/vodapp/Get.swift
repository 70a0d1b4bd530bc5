import ArgumentParser
import CommandSupport
import Foundation
import VODAppPayload

struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Fetch plain URLs as one push of them would: no payload needed.",
        discussion: """
        Each URL becomes an item whose key comes from the URL (its file name and a hash of its \
        scheme, host, port and path), so the same URL given again is the same item: already \
        present, resumed where it was cut, never fetched twice. Its title is the matching \
        --title (the first for the first URL, and so on), else its file name. Everything else is \
        as `vodapp handle`: the budget, the size limit, the report, the notification, the exit \
        codes (65 for a URL that is not an http or https URL; the others are still fetched).

        Examples:
          vodapp get https://example.com/media/tulips.mp4 --title Tulips
          vodapp get https://example.com/a.mp4 https://example.com/live/index.m3u8 \\
            --budget 60

        More: docs/PAYLOAD.md (installed under /usr/share/doc/vodapp/).
        """
    )

    @Argument(help: ArgumentHelp("The http or https URLs to fetch, each a video or an HLS or DASH stream.", valueName: "url"))
    var urls: [String]

    @Option(name: .customLong("title"), help: ArgumentHelp("The title of the URL in the same place (repeatable). Default: its file name.",
                                                           valueName: "title"))
    var titles: [String] = []

    @OptionGroup var handling: HandlingOptions

    @Flag(help: "Print the report as one JSON object on stdout, and nothing else there.")
    var json = false

    func validate() throws {
        guard !urls.isEmpty else { throw ValidationError("give at least one URL to fetch") }
        guard titles.count <= urls.count else {
            throw ValidationError("\(titles.count) --title for \(urls.count) URL\(urls.count == 1 ? "" : "s"): each --title names the URL in its place")
        }
    }

    func run() async throws {
        let logger = LogSetup.bootstrap(quiet: handling.quiet, verbose: handling.verbose, level: handling.logLevel)
        let signals = await SignalTrap()
        let payload = PlainURLs.payload(urls: urls, titles: titles)
        throw ExitCode(try await handling.deliverOnce(payload, from: .commandLine, json: json, signals: signals, logger: logger))
    }
}
