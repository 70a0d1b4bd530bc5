import Foundation
import Testing
import VODAppDelivery
import VODAppNotify
import VODAppReport

/// What a sender nothing vouches for reads of a delivery's report: pure values in and out.
@Suite struct DeliveryReportRedactionTests {
    private let directory = "/home/ann/Videos/VODApp"

    private var report: DeliveryReport {
        DeliveryReport(
            elapsed: .seconds(2), budget: .seconds(30), directory: directory,
            items: [
                ItemReport(key: "new", title: "New", url: "http://sender/new.mp4", status: .downloaded, bytes: 4000,
                           path: directory + "/New [new].mp4", httpStatus: 200),
                ItemReport(key: "holiday", title: "Holiday", url: "http://sender/h.mp4", status: .alreadyPresent, bytes: 812_000_000,
                           path: directory + "/holiday.mp4"),
                ItemReport(key: "full", title: "Full", url: "http://sender/f.mp4", status: .failed,
                           error: "cannot write \(directory)/.vodapp/partial/full.part: no space left on device (\(directory) is full)"),
            ],
            notification: .notShown("--no-notify"),
            removed: [RemovedFile(key: "old", title: "Old", path: directory + "/Old [old].mp4", bytes: 9, reason: "older than 7 days")])
    }

    private func object(_ report: DeliveryReport) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
    }

    @Test func theOwnersReportNamesDIRAndItsFiles() throws {
        let json = try object(report)
        #expect(json["directory"] as? String == directory)
        #expect((json["removed"] as? [Any])?.count == 1)
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.map { $0["path"] as? String } == [directory + "/New [new].mp4", directory + "/holiday.mp4", nil])
    }

    @Test func anUnvouchedSenderLearnsNothingOfDIR() throws {
        let redacted = report.redacted
        #expect(!redacted.json.contains(directory), "\(redacted.json)")
        let json = try object(redacted)
        #expect(json["directory"] == nil)
        #expect(json["removed"] == nil)
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.allSatisfy { $0["path"] == nil })
        // The bytes the sender's server sent stay; the size of a file already there goes.
        #expect(items.map { $0["bytes"] as? Int } == [4000, nil, nil])
        #expect(items.map { $0["status"] as? String } == ["downloaded", "alreadyPresent", "failed"])
        #expect(items[2]["error"] as? String == "cannot write DIR/.vodapp/partial/full.part: no space left on device (DIR is full)")
        // The exit code's and the result's words are the same as the owner's.
        #expect(redacted.result == report.result)
        #expect(json["result"] as? String == "newData")
    }
}
