import CommandSupport
import Testing
@testable import VODAppDelivery
import VODAppReport

/// `--dry-run`'s summary as a person reads it: one line per item, what --sync and retention
/// would remove, the totals; and text from the network made safe for a terminal.
@Suite struct PreviewRendererTests {
    @Test func eachItemAndEachRemovalIsOneLine() {
        let preview = DeliveryPreview(
            directory: "/v",
            items: [
                .init(key: "a", title: "A", url: "https://m.example/a.mp4", action: .fetch),
                .init(key: "b", title: "B", url: "https://m.example/b.mp4", action: .resume, bytes: 3 << 20),
                .init(key: "c", title: "C", url: nil, action: .present, path: "/v/C [c].mp4"),
                .init(key: "d", title: "D\u{1b}[2J", url: nil, action: .skip, reason: "removed from DIR, not by vodapp"),
                .init(key: "bad/key", title: nil, url: nil, action: .invalid, reason: "the key must be 1 to 128 of A-Z a-z 0-9 _ -"),
            ],
            removals: [RemovedFile(key: "o", title: "Old", path: "/v/Old [o].mp4", bytes: 1 << 20, reason: "older than 7 days (--keep-days 7)")],
            syncRemovals: [RemovedFile(key: "o", title: "Old", path: "/v/Old [o].mp4", bytes: 1 << 20, reason: "the latest push (4 items) does not name it (--sync)")],
            syncWaitsFor: ["a", "b"],
            warnings: [])
        #expect(PreviewRenderer.summary(preview).split(separator: "\n").map(String.init) == [
            "dry run: nothing was requested or written in /v",
            "  would fetch     A <- https://m.example/a.mp4",
            "  would resume    B from 3.0 MiB kept <- https://m.example/b.mp4",
            "  already present C -> /v/C [c].mp4",
            "  would skip      D?[2J: removed from DIR, not by vodapp",
            "  invalid         key \"bad/key\": the key must be 1 to 128 of A-Z a-z 0-9 _ -",
            "  --sync would remove 1 file (1.0 MiB), once the push's 2 items to come are in DIR:",
            "    Old (1.0 MiB): the latest push (4 items) does not name it (--sync)",
            "  retention would remove 1 file (1.0 MiB), as DIR stands (what this delivery fetches may make it remove more):",
            "    Old (1.0 MiB): older than 7 days (--keep-days 7)",
            "dry run: 1 to fetch, 1 to resume, 1 already present, 1 to skip, 1 invalid",
        ])
        #expect(preview.hasInvalidItems)
    }

    @Test func anEmptyPlaylistSaysSo() {
        let preview = DeliveryPreview(directory: "/v", items: [], removals: [], syncRemovals: [], syncWaitsFor: [], warnings: [])
        #expect(PreviewRenderer.summary(preview).hasSuffix("dry run: empty playlist"))
        #expect(!preview.hasInvalidItems)
    }
}
