import Foundation
import Testing
@testable import CommandSupport

/// The numbers of the report's last line: the time taken, with two decimals, and the budget as
/// briefly as it reads back.
@Suite struct ReportRendererNumberTests {
    @Test(arguments: [(0.0, "0.00"), (1.5, "1.50"), (0.004, "0.00"), (0.006, "0.01"), (29.999, "30.00"),
                      (12.345678, "12.35"), (0.09, "0.09"), (100.1, "100.10")])
    func theTimeHasTwoDecimals(_ seconds: Double, _ shown: String) {
        #expect(ReportRenderer.hundredths(seconds) == shown)
    }

    @Test func theTimeIsWithinHalfAHundredthOfWhatWasTaken() {
        for _ in 0..<10_000 {
            let seconds = Double.random(in: 0..<3600)
            let shown = ReportRenderer.hundredths(seconds)
            #expect(shown.split(separator: ".").last?.count == 2, "\(shown)")
            #expect(abs(Double(shown)! - seconds) <= 0.005 + 1e-9, "\(seconds) → \(shown)")
        }
    }

    @Test(arguments: [(30.0, "30"), (0.5, "0.5"), (2.25, "2.25"), (45.0, "45"), (1e-05, "1e-05"), (3600, "3600")])
    func theBudgetIsAsBriefAsItReadsBack(_ seconds: Double, _ shown: String) {
        #expect(ReportRenderer.shortest(seconds) == shown)
        #expect(Double(shown) == seconds)
    }
}
