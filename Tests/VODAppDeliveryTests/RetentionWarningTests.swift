import Testing
@testable import VODAppDelivery

/// What a retention warning says keeps a limit from being met: each reason only when it applied
/// (the new-user trial was told of signed pushes when none had come).
@Suite struct RetentionWarningTests {
    @Test func onlyTheReasonsThatAppliedAreGiven() {
        let window = Duration.seconds(300)
        #expect(Delivery.keptReasons(thisDelivery: 1, recent: 0, window: window, vouchedFor: 0) == "1 file of this delivery")
        #expect(Delivery.keptReasons(thisDelivery: 0, recent: 3, window: window, vouchedFor: 0)
                == "3 files placed in the last 5 minutes, which a delivery still running may report")
        #expect(Delivery.keptReasons(thisDelivery: 2, recent: 1, window: .seconds(30 * 60 + 1), vouchedFor: 4)
                == "2 files of this delivery, 1 file placed in the last 31 minutes, which a delivery still running may report and "
                + "4 files that a payload file, a poll or a signed push named, which an unauthenticated push such as this one may "
                + "not make room by removing")
        #expect(Delivery.keptReasons(thisDelivery: 0, recent: 0, window: window, vouchedFor: 0) == "no file of vodapp's")
    }
}
