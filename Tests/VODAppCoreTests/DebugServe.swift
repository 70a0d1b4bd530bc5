import Foundation
import Testing
import VODAppSamples

@Test(.enabled(if: ProcessInfo.processInfo.environment["VODAPP_DEBUG_SERVE"] != nil))
func debugServe() async throws {
    let server = try await SampleServer.start(port: 18080)
    try await Task.sleep(for: .seconds(40))
    await server.shutdown()
}
