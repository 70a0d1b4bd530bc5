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
           "playlist": {"<key>": {"title": "…", "subtitle": "…", "url": "https://…"}}}

        Exit codes: 0 every valid item is in DIR or was too large; 75 an item failed or timed \
        out and may pass later (try again); 69 items failed for good ("final": a 404, a live \
        stream; delivering again will not help); 64 bad command line; 65 invalid payload; 66 payload unreadable; \
        73 DIR unusable; 130/143 stopped by SIGINT/SIGTERM (what was cut is resumed next time).

        Example:
          vodapp handle SamplePayloads/vodapp-sample-local.json --dir /tmp/videos --json
        """
    )

    @Argument(help: ArgumentHelp("The payload: a JSON file, or - for standard input.", valueName: "payload"))
    var payload: String

    @OptionGroup var handling: HandlingOptions

    @Flag(help: "Print the report as one JSON object on stdout, and nothing else there.")
    var json = false

    func run() async throws {
        let logger = LogSetup.bootstrap(quiet: handling.quiet, verbose: handling.verbose, level: handling.logLevel)
        let options = handling.deliveryOptions
        let signals = await SignalTrap()

        let source = PayloadSource(argument: payload)
        let parsed: Payload
        do {
            let deadline = Budget(start: ProcessClock.launch, duration: options.budget).transferDeadline
            parsed = try Payload(data: try source.read(limit: Payload.maximumSize, deadline: deadline))
        } catch let error as PayloadSource.ReadError {
            throw CommandFailure(error, hint: Self.commandHint(for: payload, error)) ?? error
        }

        throw ExitCode(try await handling.deliverOnce(parsed, from: source.deliverySource, json: json, signals: signals,
                                                      logger: logger))
    }

    /// `vodapp stauts` reads a payload file named "stauts": a missing file whose name is a
    /// command's but for a letter or two was most likely meant as the command.
    static func commandHint(for argument: String, _ error: PayloadSource.ReadError) -> String {
        guard case .unreadable(_, let reason) = error, reason == Errno(rawValue: ENOENT).description,
              !argument.contains("/"), !argument.contains(".") else { return "" }
        // ArgumentParser's own name for each command, as the usage line shows it.
        let commands = VODAppCommand.configuration.subcommands.map { $0._commandName }
        guard let near = commands.first(where: { editDistance($0, argument.lowercased()) <= 2 }) else { return "" }
        return " (did you mean `vodapp \(near)`?)"
    }

    /// Levenshtein distance, for a handful of short command names.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
