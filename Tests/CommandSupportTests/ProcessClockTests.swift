import Foundation
import Testing
@testable import CommandSupport

/// The budget counts from the kernel's start of the process, not from the first Swift code.
@Suite struct ProcessClockTests {
    /// The age read from /proc follows the clock, and the launch lies before this test began
    /// (the test process was started before any test ran).
    @Test func theProcessAgeFollowsTheClockAndTheLaunchCameFirst() async throws {
        // Each reading is bracketed by the clock, so that a pause anywhere cannot fail the test;
        // /proc's start time is in clock ticks (10 ms), hence the margins.
        let began = ContinuousClock.now
        let first = try #require(ProcessClock.processAge())
        let afterFirst = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(300))
        let beforeSecond = ContinuousClock.now
        let second = try #require(ProcessClock.processAge())
        let ended = ContinuousClock.now
        let grown = second - first
        #expect(grown >= beforeSecond - afterFirst - .milliseconds(20), "\(first) then \(second)")
        #expect(grown <= ended - began + .milliseconds(20), "\(first) then \(second)")
        #expect(ProcessClock.launch < began)
    }
}
