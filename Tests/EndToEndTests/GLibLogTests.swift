import Foundation
import Testing
import TestSupport
import UnitTestSupport
import VODAppSamples

/// GLib's own log lines (GIO's here; libnotify's are GLib's too) reach stderr only through
/// swift-log: formatted as vodapp's other lines, and only at the level asked for.
@Suite struct GLibLogTests {
    @Test func glibsLinesGoThroughSwiftLog() async throws {
        let scratch = try ScratchDirectory()
        try await withSampleServer { server in
            let payload = PayloadBuilder.json([(key: "k", title: "T", url: server.url("/bytes/100.mp4"))])
            let verbose = try await VODAppRunner().run(["-", "--dir", scratch.path, "--no-notify", "-v"], stdin: payload,
                                                       environment: VODAppRunner.environment(extra: ["G_MESSAGES_DEBUG": "all"]))
            #expect(verbose.exitCode == 0)
            let glib = verbose.stderr.split(separator: "\n").filter { $0.contains("[GLib-GIO]") }
            #expect(!glib.isEmpty, "\(verbose.stderr)")
            #expect(glib.allSatisfy { $0.contains(" debug vodapp: [GLib-GIO] ") }, "\(glib)")
            #expect(!verbose.stderr.contains("GLib-GIO-DEBUG"), "GLib's own format: \(verbose.stderr)")
            let quiet = try await VODAppRunner().run(["-", "--dir", scratch.child("again"), "--no-notify"], stdin: payload,
                                                     environment: VODAppRunner.environment(extra: ["G_MESSAGES_DEBUG": "all"]))
            #expect(quiet.exitCode == 0)
            #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        }
    }
}
