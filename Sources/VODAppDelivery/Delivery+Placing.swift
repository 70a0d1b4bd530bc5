import Foundation
import VODAppBase
import VODAppMediaDirectory
import VODAppReport
import VODAppStore
import VODAppStreams
import VODAppTransferPolicy

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

    /// Places a stream item's subtitles beside its file, just placed at `file`: each written and
    /// made durable in the work area, then given its name (`MediaFileName.subtitle`) without
    /// replacing anything there, as the item's file is. One at the name already (an earlier
    /// delivery's, or the user's) stays as it is; it is vodapp's only if the store says so.
    /// - Parameter until: past it, none is placed: each is an fsync, and the report is due.
    func placeSubtitles(_ tracks: [SubtitleTrack], beside file: String, key: String, known: StoredItem?,
                        directory: MediaDirectory, until deadline: ContinuousClock.Instant) -> [SubtitleReport] {
        let fileName = (file as NSString).lastPathComponent
        return tracks.map { track in
            func failed(_ why: String) -> SubtitleReport {
                logger.info("a subtitle was not placed", metadata: ["key": "\(key)", "language": "\(track.language)", "reason": "\(why)"])
                return SubtitleReport(language: track.language, name: track.name, error: why)
            }
            guard let text = track.text else { return failed(track.error ?? "it was not made") }
            guard ContinuousClock.now < deadline else { return failed("the budget ran out before it was placed") }
            let name = MediaFileName.subtitle(beside: fileName, language: track.language)
            guard name.utf8.count <= 255 else { return failed("its name would be longer than the 255 bytes a file system allows") }
            let final = directory.path + "/" + name
            let temporary = directory.subtitleTemporaryPath(key: key, language: track.language)
            do {
                try SafeFile.write(text, to: temporary)
            } catch {
                return failed("cannot write it: \(error)")
            }
            switch directory.place(temporary, at: final) {
            case .placed(let identity):
                let placed = identity.map { PlacedSubtitle(name: name, bytes: Int64(text.count), fileID: $0.fileID, fingerprint: $0.fingerprint) }
                return SubtitleReport(language: track.language, name: track.name, path: final, bytes: Int64(text.count), placed: placed)
            case .alreadyThere:
                // An earlier delivery's stays vodapp's; another file (the user's own subtitles,
                // say) stays as it is, and the report says the name was taken.
                // The store's record counts only while the file is still the one placed: one the
                // user wrote at the name since is not vodapp's (eleventh attacker trial).
                guard let earlier = known?.placedSubtitles.first(where: { $0.name == name }), let root = try? directory.folder(),
                      let updated = known?.updatedAt,
                      directory.placedFile(named: name, in: root, bytes: earlier.bytes, placedAt: updated, fileID: earlier.fileID,
                                           fingerprint: earlier.fingerprint) != nil else {
                    return failed("\(final) is there already, not placed by vodapp: it stays as it is")
                }
                let size: Int64? = if case .file(let size) = directory.presence(at: final) { size } else { nil }
                return SubtitleReport(language: track.language, name: track.name, path: final, bytes: size, placed: earlier)
            case .failed(let reason), .takenIgnoringCase(let reason):
                return failed("cannot place it in \(directory.path): \(reason)")
            }
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
