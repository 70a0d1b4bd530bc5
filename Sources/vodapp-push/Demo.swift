import ArgumentParser
import CommandSupport
import Foundation
import VODAppBase
import VODAppDelivery
import VODAppMediaDirectory
import VODAppNotify
import VODAppPush

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the whole path offline: sample media, a push, the delivery, the notification.",
        discussion: """
        Starts the sample media server and a listener on free loopback ports, sends the VODApp \
        sample playlist as a push (a UDP datagram, as the simulator library did, an HTTP POST, or \
        an MQTT publication through a mosquitto broker it starts, when mosquitto is installed), \
        and waits for the delivery: three videos arrive, two are dropped as too large. \
        Then it prints where the files are, what the notification said, and the playlist that \
        plays the three real clips in mpv or VLC.

        Exit codes: as `vodapp handle`: 0 when every item arrived or was dropped as too large.

        Examples:
          vodapp-push demo
          vodapp-push demo --via http --dir /tmp/videos
          vodapp-push demo --via mqtt

        More: docs/PUSH.md (installed under /usr/share/doc/vodapp/).
        """
    )

    @Option(help: ArgumentHelp("Where media goes. Default: a new folder under the temporary directory.", valueName: "dir"))
    var dir: String?

    @Option(help: ArgumentHelp("How the push travels: \(PushDemo.Via.allCases.map(\.rawValue).joined(separator: " or ")).", valueName: "transport"))
    var via: PushDemo.Via = .udp

    @Option(parsing: .unconditional, help: ArgumentHelp("Cap each sample response to this many bytes per second.", valueName: "bytes-per-second"))
    var rate: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("The delivery's wall-clock budget, in seconds. Default: \(Int(DeliveryOptions.defaultBudgetSeconds)).",
                               valueName: "seconds"),
            transform: OptionValue.seconds(atMost: 86_400))
    var budget: Duration = DeliveryOptions.defaultBudget

    @Flag(help: "Do not raise a desktop notification (its text is still printed).")
    var noNotify = false

    @Flag(name: .shortAndLong, help: "Every transfer's progress on stderr.")
    var verbose = false

    func validate() throws {
        if let rate, rate <= 0 { throw ValidationError("--rate must be above 0") }
    }

    func run() async throws {
        let logger = LogSetup.bootstrap(quiet: false, verbose: verbose)
        let directory = dir ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("vodapp-demo-\(UInt32.random(in: 0...UInt32.max))").path
        let options = DeliveryOptions(directory: directory, budget: budget, notify: !noNotify)
        let demo = PushDemo(options: options, via: via, rate: rate, logger: logger, attention: .logged(to: logger))
        let report = try await demo.run { say($0) }
        say("The delivery:")
        print(ReportRenderer.summary(report))
        if let notification = DesktopNotification(announcing: report.items) {
            let how = report.notification.shown ? "shown" : "not shown: \(report.notification.reason ?? "")"
            say("The notification (\(how)):\n  \(notification.summary)\n  \(notification.body.replacingOccurrences(of: "\n", with: "\n  "))")
        } else {
            say("No notification: nothing new arrived.")
        }
        let playlist = report.directory + "/" + MediaPlaylist.name(in: report.directory)
        if FileManager.default.fileExists(atPath: playlist) {
            say("The playlist for a media player: \(playlist)\n  mpv '\(playlist)'   (or vlc)")
        }
        throw ExitCode(ExitStatus(report).rawValue)
    }

    private func say(_ line: String) {
        print("== " + line)
    }
}

/// `--via udp|http`, parsed once by ArgumentParser, which names the choices when a value is not
/// one of them.
extension PushDemo.Via: ExpressibleByArgument {}
