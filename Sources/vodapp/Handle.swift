import ArgumentParser
import Foundation
import VODAppCore

struct Handle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch every item of a payload's playlist into DIR within the budget.",
        discussion: """
        PAYLOAD is a JSON file, or - for standard input:
          {"aps": {"content-available": 1},
           "playlist": {"<key>": {"title": "…", "subtitle": "…", "url": "https://…"}}}

        Exit codes: 0 every valid item is in DIR or was too large; 75 an item failed or timed \
        out (try again later); 64 bad command line; 65 invalid payload; 66 payload unreadable; \
        73 DIR unusable.

        Example:
          vodapp handle SamplePayloads/vodapp-sample-local.json --dir /tmp/videos --json
        """
    )

    @Argument(help: ArgumentHelp("The payload: a JSON file, or - for standard input.", valueName: "payload"))
    var payload: String

    @Option(help: ArgumentHelp("Where media goes. Default: $VODAPP_DIR, else the XDG videos folder + /VODApp.", valueName: "dir"))
    var dir: String?

    @Option(help: ArgumentHelp("Wall-clock budget for the whole run, in seconds.", valueName: "seconds"))
    var budget: Double = DeliveryOptions.defaultBudgetSeconds

    @Option(help: ArgumentHelp("Drop items strictly larger than this: bytes, or K/M/G for KiB/MiB/GiB.", valueName: "size"))
    var maxSize: String = "20M"

    @Option(help: ArgumentHelp("Most transfers at once.", valueName: "n"))
    var jobs: Int = TransferEngine.Configuration.defaultJobs

    @Flag(help: "Print the report as one JSON object on stdout, and nothing else there.")
    var json = false

    @Flag(help: "Do not raise a desktop notification.")
    var noNotify = false

    @Flag(name: .shortAndLong, help: "Only errors on stderr.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Every transfer's progress on stderr.")
    var verbose = false

    func validate() throws {
        guard budget.isFinite, budget > 0, budget <= 86_400 else {
            throw ValidationError("--budget must be a number of seconds above 0, at most 86400, not \(budget)")
        }
        guard ByteSize.parse(maxSize) != nil else {
            throw ValidationError("--max-size must be a byte count, optionally with K, M or G, not '\(maxSize)'")
        }
        guard jobs >= 1 && jobs <= 256 else {
            throw ValidationError("--jobs must be between 1 and 256, not \(jobs)")
        }
        guard !(quiet && verbose) else {
            throw ValidationError("--quiet and --verbose cannot be used together")
        }
    }

    func run() async throws {
        let logger = LogSetup.bootstrap(quiet: quiet, verbose: verbose)
        let options = DeliveryOptions(
            directory: dir ?? DeliveryOptions.defaultDirectory(),
            budget: .milliseconds(Int64((budget * 1000).rounded())),
            maximumSize: ByteSize.parse(maxSize) ?? DeliveryOptions.defaultMaximumSize,
            jobs: jobs,
            notify: !noNotify
        )

        let source = PayloadSource(argument: payload)
        let parsed: Payload
        do {
            let deadline = Budget(start: ProcessClock.launch, duration: options.budget).transferDeadline
            parsed = try Payload(data: try source.read(limit: Payload.maximumSize, deadline: deadline))
        } catch let error as PayloadSource.ReadError {
            throw fail(error.description, status: .payloadUnreadable)
        } catch let error as PayloadError {
            throw fail("invalid payload: \(error)", status: .invalidPayload)
        }

        let report: DeliveryReport
        do {
            report = try await Delivery(options: options, logger: logger).run(parsed, started: ProcessClock.launch)
        } catch {
            throw fail(error.description, status: error.exitStatus)
        }
        print(json ? ReportRenderer.json(report) : ReportRenderer.summary(report))
        throw ExitCode(report.exitStatus.rawValue)
    }

    /// One line on stderr, then the exit code.
    private func fail(_ message: String, status: ExitStatus) -> ExitCode {
        FileHandle.standardError.write(Data("vodapp: \(message)\n".utf8))
        return ExitCode(status.rawValue)
    }
}
