import Testing
@testable import VODAppStreams
import VODAppTransferPolicy

/// The record beside a cut segment: written from what the server said, read back strictly, since
/// its validator goes into a request header.
@Suite struct ResumeRecordTests {
    @Test func aRecordReadsBackAsWritten() throws {
        let record = try #require(ResumeRecord(TransferOutcome.Partial(bytes: 4096, etag: "\"abc\"", lastModified: nil, total: 90_000)))
        #expect(record.text == "4096\n90000\n\"abc\"\n")
        #expect(ResumeRecord(text: record.text) == record)
        // A weak ETag cannot go in If-Range: the date does.
        let dated = ResumeRecord(TransferOutcome.Partial(bytes: 1, etag: "W/\"abc\"", lastModified: "Wed, 25 Nov 2026 10:00:00 GMT", total: 2))
        #expect(dated?.validator == "Wed, 25 Nov 2026 10:00:00 GMT")
    }

    @Test func whatAResumeCannotUseIsNoRecord() {
        // No validator, no size, nothing kept, or all of it.
        #expect(ResumeRecord(TransferOutcome.Partial(bytes: 10, etag: nil, lastModified: nil, total: 20)) == nil)
        #expect(ResumeRecord(TransferOutcome.Partial(bytes: 10, etag: "\"a\"", lastModified: nil, total: nil)) == nil)
        #expect(ResumeRecord(kept: 0, total: 20, validator: "\"a\"") == nil)
        #expect(ResumeRecord(kept: 20, total: 20, validator: "\"a\"") == nil)
        // A header's line break, a control character, another line, or a missing one.
        for text in ["10\n20\n\"a\"\r\nX-Evil: 1\n", "10\n20\n\"a\u{1}\"\n", "10\n20\n\"a\"\nmore\n", "10\n20\n", "ten\n20\n\"a\"\n", "10\n20\n\"a\""] {
            #expect(ResumeRecord(text: text) == nil, "\(text.debugDescription)")
        }
    }
}
