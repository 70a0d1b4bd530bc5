import ArgumentParser
import Foundation
import VODAppSamples

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve sample media on loopback and print a payload that points at it.",
        discussion: """
        The payload is the original VODApp sample playlist: three videos under the 20 MiB limit, \
        one over it with a Content-Length, and one over it without (chunked).

        Example:
          vodapp-push serve --port 9932 > payload.json &
          vodapp payload.json --dir /tmp/videos
        """
    )

    @Option(help: "The loopback port to listen on; 0 picks a free one.")
    var port: Int = SampleCatalogue.defaultPort

    @Option(help: ArgumentHelp("Cap each response to this many bytes per second.", valueName: "bytes-per-second"))
    var rate: Int?

    @Option(help: ArgumentHelp("Cap all responses together to this many bytes per second, like one slow link.", valueName: "bytes-per-second"))
    var linkRate: Int?

    @Option(help: "Stop after this many seconds; by default, serve until interrupted.")
    var seconds: Double?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if let rate, rate <= 0 { throw ValidationError("--rate must be above 0") }
        if let linkRate, linkRate <= 0 { throw ValidationError("--link-rate must be above 0") }
        if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be above 0") }
    }

    func run() async throws {
        let server: SampleServer
        do {
            server = try await SampleServer.start(port: port, rate: rate, linkRate: linkRate)
        } catch {
            FileHandle.standardError.write(Data("vodapp-push: cannot serve on 127.0.0.1:\(port): \(error)\n".utf8))
            throw ExitCode(69)
        }
        // Unbuffered: whoever reads the payload from a file or pipe needs it now, not when the
        // server stops.
        FileHandle.standardOutput.write(Data(SampleCatalogue.payload(baseURL: server.baseURL).utf8))
        FileHandle.standardError.write(Data("vodapp-push: serving sample media on \(server.baseURL)\n".utf8))
        if let seconds {
            try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
        } else {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        }
        await server.shutdown()
    }
}
