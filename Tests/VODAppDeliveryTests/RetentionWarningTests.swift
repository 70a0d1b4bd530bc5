import Testing
@testable import VODAppDelivery

/// What a retention warning says keeps a limit from being met: each reason only when it applied
/// (the new-user trial was told of signed pushes when none had come).
@Suite struct RetentionWarningTests {
    @Test func onlyTheReasonsThatAppliedAreGiven() {
        #expect(Delivery.keptReasons(thisDelivery: 1, running: 0, vouchedFor: 0) == "1 file of this delivery")
        #expect(Delivery.keptReasons(thisDelivery: 0, running: 3, vouchedFor: 0) == "3 files of deliveries still running")
        #expect(Delivery.keptReasons(thisDelivery: 2, running: 1, vouchedFor: 4)
                == "2 files of this delivery, 1 file of deliveries still running and "
                + "4 files that a payload file, a poll or a signed push named, which an unauthenticated push such as this one may "
                + "not make room by removing")
        #expect(Delivery.keptReasons(thisDelivery: 0, running: 0, vouchedFor: 0) == "no file of vodapp's")
    }
}
