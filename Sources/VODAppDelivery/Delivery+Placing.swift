import Foundation
import VODAppMediaDirectory
import VODAppStreams
import VODAppTransfer

/// The place phase: a transfer's outcome becomes a file in DIR and an item's report.
extension Delivery {
    /// Places a finished transfer's file in DIR under its name, and says how the item ended.
    func place(_ outcome: TransferOutcome, target: DeliveryTarget, directory: MediaDirectory) -> ItemReport {
        let item = target.item
        let name = MediaFileName(key: item.key, title: item.title ?? "",
                                 fileExtension: MediaFileName.fileExtension(url: target.url, contentType: outcome.contentType),
                                 style: options.naming)
        let final = directory.path(of: name)
        let title = item.title
        let url = item.urlString
        let status = outcome.httpStatus
        switch outcome.result {
        case .completed(let bytes):
            switch directory.place(target.temporary, at: final) {
            case .placed(let identity):
                logger.info("downloaded", metadata: ["key": "\(item.key)", "bytes": "\(bytes)"])
                var report = ItemReport(key: item.key, title: title, url: url, status: .downloaded, bytes: bytes, path: final,
                                        httpStatus: status)
                report.placed = identity
                return report
            case .alreadyThere:
                // Another delivery placed the same key while this one was fetching it.
                let size: Int64? = if case .file(let size) = directory.presence(at: final) { size } else { nil }
                return ItemReport(key: item.key, title: title, url: url, status: .alreadyPresent, bytes: size, path: final, httpStatus: status)
            case .failed(let reason):
                return ItemReport(key: item.key, title: title, url: url, status: .failed, httpStatus: status,
                                  error: "cannot place the file in \(directory.path): \(reason)")
            case .takenIgnoringCase(let reason):
                // Delivering again meets the same name: final, so that a script does not retry.
                return ItemReport(key: item.key, title: title, url: url, status: .failed, httpStatus: status,
                                  error: "cannot place the file in \(directory.path): \(reason)", final: true)
            }
        case .tooLarge(let declared):
            let size = declared.map { "it is \($0) bytes" } ?? "it passed the limit as it arrived"
            logger.info("dropped as too large", metadata: ["key": "\(item.key)", "bodyBytesReceived": "\(outcome.bodyBytesReceived)"])
            return ItemReport(key: item.key, title: title, url: url, status: .tooLarge, httpStatus: status,
                              error: "larger than the \(options.maximumSize)-byte limit: \(size)")
        case .timedOut(let reason):
            logger.info("timed out", metadata: ["key": "\(item.key)", "reason": "\(reason)"])
            return ItemReport(key: item.key, title: title, url: url, status: .timedOut, httpStatus: status, error: reason)
        case .failed(let reason):
            logger.info("failed", metadata: ["key": "\(item.key)", "reason": "\(reason)", "final": "\(outcome.isFinal)"])
            return ItemReport(key: item.key, title: title, url: url, status: .failed, httpStatus: status, error: reason,
                              final: outcome.isFinal)
        case .captured:
            // An HLS playlist `StreamDownloads` did not take up: it could not be read.
            return ItemReport(key: item.key, title: title, url: url, status: .failed, httpStatus: status,
                              error: "the server answered with a playlist vodapp cannot read", final: true)
        }
    }

    /// The report of an item whose file DIR already has, or nil when the name found has gone.
    func present(_ target: DeliveryTarget, at path: String, in directory: MediaDirectory) -> ItemReport? {
        switch directory.presence(at: path) {
        case .file(let bytes): target.report(.alreadyPresent, bytes: bytes, path: path)
        case .other: target.report(.failed, error: "\(path) exists and is not a regular file")
        case .absent: nil
        }
    }
}
